export { contentSecurityPolicy } from './csp.ts';
export type { ErrorReason, PageKind, PageModel, PaymentSummary } from './model.ts';
export { type RenderedPage, renderPage } from './render.tsx';
