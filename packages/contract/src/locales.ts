/** The languages the widget and the hosted 3-D Secure page speak; anything else is shown in English. */
export const LOCALES = ['en', 'fr', 'de', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
