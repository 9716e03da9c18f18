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
    next: 'Auf dieser Seite ist nichts mehr zu tun.',
  },
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
