import type { Messages } from './en.ts';

export const de: Messages = {
  service: 'Sichere Zahlung mit Payframe',
  footer: 'Diese Seite wird von Payframe im Auftrag des Händlers bereitgestellt. Ihre Kartendaten werden dem Händler nicht angezeigt.',
  testMode: {
    title: 'Testmodus',
    body: 'Dies ist eine simulierte 3-D-Secure-Prüfung. Es wird keine echte Karte belastet und keine Bank kontaktiert.',
  },
  summary: {
    label: 'Zahlungsdetails',
    merchant: 'Händler',
    amount: 'Betrag',
    card: 'Karte',
    cardEnding: 'endet auf',
    description: 'Beschreibung',
  },
  unknownBrand: 'Karte',
  challenge: {
    title: 'Bestätigen Sie Ihre Zahlung',
    intro: 'Ihr Kartenherausgeber bittet Sie, diese Zahlung zu bestätigen, bevor sie ausgeführt werden kann.',
    choose: 'Wählen Sie ein Ergebnis für diese Authentifizierung.',
    authenticate: 'Authentifizierung abschließen',
    fail: 'Authentifizierung fehlschlagen lassen',
  },
  completed: {
    title: 'Authentifizierung bereits abgeschlossen',
    succeeded: 'Diese Zahlung wurde erfolgreich authentifiziert.',
    failed: 'Die Authentifizierung dieser Zahlung ist fehlgeschlagen.',
    unavailable: 'Ihre Bank konnte diese Zahlung nicht authentifizieren; sie kann ohne Authentifizierung ausgeführt werden.',
    next: 'Auf dieser Seite ist nichts mehr zu tun.',
  },
  otp: {
    title: 'Geben Sie Ihren Einmalcode ein',
    intro: 'Ihre Bank hat einen 6-stelligen Code per SMS an die für diese Karte hinterlegte Telefonnummer gesendet.',
    testCode: (code) => `Testmodus: Der Code lautet ${code}.`,
    label: 'Einmalcode',
    submit: 'Bestätigen',
    resend: 'Neuen Code senden',
    resent: 'Ein neuer Code wurde gesendet.',
    missing: 'Geben Sie den erhaltenen Code ein.',
    wrong: (left) => (left === 1 ? 'Dieser Code ist falsch. Sie haben noch 1 Versuch.' : `Dieser Code ist falsch. Sie haben noch ${left} Versuche.`),
  },
  oobWaiting: {
    title: 'Bestätigen Sie diese Zahlung in Ihrer Banking-App',
    body: 'Ihre Bank hat eine Benachrichtigung an Ihre Banking-App gesendet. Öffnen Sie sie und bestätigen oder lehnen Sie die Zahlung ab; diese Seite geht von selbst weiter.',
    device: 'Simulierte Banking-App öffnen',
  },
  oobDevice: {
    title: 'Diese Zahlung bestätigen?',
    intro: 'Ein Shop möchte diese Zahlung von Ihrer Karte abbuchen.',
    approve: 'Bestätigen',
    deny: 'Ablehnen',
  },
  oobDone: {
    title: 'Antwort gesendet',
    approved: 'Sie haben die Zahlung bestätigt.',
    denied: 'Sie haben die Zahlung abgelehnt.',
    next: 'Kehren Sie zur Seite des Shops zurück, um fortzufahren.',
  },
  frictionless: {
    title: 'Ihre Bank wird geprüft…',
    body: 'Ihre Bank bestätigt diese Zahlung, ohne Sie etwas zu fragen. Das dauert nur einen Moment.',
  },
  rejected: {
    title: 'Ihre Bank hat diese Zahlung abgelehnt',
    body: 'Ihr Kartenherausgeber hat die Authentifizierung dieser Zahlung ohne Rückfrage abgelehnt. Die Zahlung kann mit dieser Karte nicht ausgeführt werden.',
  },
  authUnavailable: {
    title: 'Authentifizierung nicht verfügbar',
    body: 'Ihre Bank war zur Authentifizierung dieser Zahlung nicht erreichbar. Die Zahlung kann ohne Authentifizierung ausgeführt werden.',
  },
  complete: {
    title: 'Authentifizierung abgeschlossen',
    body: 'Sie werden zum Shop zurückgeleitet…',
  },
  proceed: 'Weiter',
  notNeeded: {
    title: 'Keine Authentifizierung erforderlich',
    body: 'Für diese Zahlung benötigt Ihre Karte keine 3-D-Secure-Authentifizierung.',
  },
  unavailable: {
    title: 'Diese Zahlung ist nicht mehr verfügbar',
    body: 'Die Zahlung ist abgelaufen, wurde eingezogen, erstattet oder storniert und kann hier nicht mehr authentifiziert werden.',
  },
  notFound: {
    title: 'Seite nicht gefunden',
    body: 'Dieser Authentifizierungslink ist ungültig. Prüfen Sie, ob Sie den vollständigen Link geöffnet haben, oder kehren Sie zum Shop zurück und starten Sie die Zahlung erneut.',
  },
  error: {
    title: 'Etwas ist schiefgelaufen',
    badRequest: 'Diese Anfrage konnte nicht verstanden werden. Kehren Sie zum Shop zurück und versuchen Sie es erneut.',
    methodNotAllowed: 'Diese Seite kann so nicht verwendet werden. Öffnen Sie den erhaltenen Link und wählen Sie dann eine Option.',
    unavailable: 'Der Zahlungsdienst ist gerade ausgelastet. Warten Sie einen Moment und laden Sie die Seite dann neu.',
  },
  returnTo: (merchant) => `Zurück zu ${merchant}`,
};
