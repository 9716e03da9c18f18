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
    next: 'Il n’y a plus rien à faire sur cette page.',
  },
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
