import type { Messages } from './en.ts';

export const fr: Messages = {
  service: 'Paiement sécurisé Payframe',
  footer: 'Cette page est fournie par Payframe pour le compte du marchand. Vos données de carte ne sont pas communiquées au marchand.',
  testMode: {
    title: 'Mode test',
    body: 'Ceci est une vérification 3-D Secure simulée. Aucune carte réelle n’est débitée et aucune banque n’est contactée.',
  },
  summary: {
    label: 'Détails du paiement',
    merchant: 'Marchand',
    amount: 'Montant',
    card: 'Carte',
    cardEnding: 'se terminant par',
    description: 'Description',
  },
  unknownBrand: 'Carte',
  challenge: {
    title: 'Confirmez votre paiement',
    intro: 'L’émetteur de votre carte vous demande de confirmer ce paiement avant qu’il puisse être effectué.',
    choose: 'Choisissez le résultat de cette authentification.',
    authenticate: 'Terminer l’authentification',
    fail: 'Faire échouer l’authentification',
  },
  completed: {
    title: 'Authentification déjà effectuée',
    succeeded: 'Ce paiement a été authentifié avec succès.',
    failed: 'L’authentification de ce paiement a échoué.',
    unavailable: 'Votre banque n’a pas pu authentifier ce paiement ; il peut être effectué sans authentification.',
    next: 'Il n’y a plus rien à faire sur cette page.',
  },
  otp: {
    title: 'Saisissez votre code à usage unique',
    intro: 'Votre banque a envoyé un code à 6 chiffres par SMS au numéro de téléphone associé à cette carte.',
    testCode: (code) => `Mode test : le code est ${code}.`,
    label: 'Code à usage unique',
    submit: 'Valider',
    resend: 'Envoyer un nouveau code',
    resent: 'Un nouveau code a été envoyé.',
    missing: 'Saisissez le code reçu.',
    wrong: (left) => (left === 1 ? 'Ce code est incorrect. Il vous reste 1 essai.' : `Ce code est incorrect. Il vous reste ${left} essais.`),
  },
  oobWaiting: {
    title: 'Approuvez ce paiement dans votre application bancaire',
    body: 'Votre banque a envoyé une notification à votre application bancaire. Ouvrez-la et approuvez ou refusez le paiement ; cette page se met à jour d’elle-même.',
    device: 'Ouvrir l’application bancaire simulée',
  },
  oobDevice: {
    title: 'Approuver ce paiement ?',
    intro: 'Une boutique demande à débiter ce paiement sur votre carte.',
    approve: 'Approuver',
    deny: 'Refuser',
  },
  oobDone: {
    title: 'Réponse envoyée',
    approved: 'Vous avez approuvé le paiement.',
    denied: 'Vous avez refusé le paiement.',
    next: 'Revenez sur la page de la boutique pour continuer.',
  },
  frictionless: {
    title: 'Vérification auprès de votre banque…',
    body: 'Votre banque confirme ce paiement sans rien vous demander. Cela ne prend qu’un instant.',
  },
  rejected: {
    title: 'Votre banque a rejeté ce paiement',
    body: 'L’émetteur de votre carte a refusé d’authentifier ce paiement sans vous demander de confirmation. Le paiement ne peut pas être effectué avec cette carte.',
  },
  authUnavailable: {
    title: 'Authentification indisponible',
    body: 'Votre banque n’a pas pu être jointe pour authentifier ce paiement. Le paiement peut être effectué sans authentification.',
  },
  complete: {
    title: 'Authentification terminée',
    body: 'Retour à la boutique…',
  },
  proceed: 'Continuer',
  notNeeded: {
    title: 'Aucune authentification nécessaire',
    body: 'Votre carte n’a pas besoin de l’authentification 3-D Secure pour ce paiement.',
  },
  unavailable: {
    title: 'Ce paiement n’est plus disponible',
    body: 'Le paiement a expiré, a été encaissé, remboursé ou annulé : il ne peut plus être authentifié ici.',
  },
  notFound: {
    title: 'Page introuvable',
    body: 'Ce lien d’authentification n’est pas valide. Vérifiez que vous avez ouvert le lien complet, ou retournez sur la boutique pour recommencer le paiement.',
  },
  error: {
    title: 'Une erreur s’est produite',
    badRequest: 'Cette requête n’a pas pu être comprise. Retournez sur la boutique et réessayez.',
    methodNotAllowed: 'Cette page ne peut pas être utilisée ainsi. Ouvrez le lien qui vous a été donné, puis choisissez une option.',
    unavailable: 'Le service de paiement est occupé. Patientez un instant, puis rechargez cette page.',
  },
  returnTo: (merchant) => `Retour à ${merchant}`,
};
