export { contentSecurityPolicy } from './csp.ts';
export { chooseLocale, LOCALES, type Locale, type LocaleChoice } from './i18n/locale.ts';
export type { ErrorReason, PageKind, PageModel, PaymentSummary } from './model.ts';
export { type RenderedPage, renderPage } from './render.tsx';
