export { contentSecurityPolicy, originOf, type PolicyOptions } from './csp.ts';
export type { CodeNotice, ErrorReason, PageKind, PageModel, PaymentSummary } from './model.ts';
export { PAGE_SCRIPT, PAGE_SCRIPT_PATH } from './page-script.ts';
export { type Framing, type RenderedPage, renderPage, usesScript, WAITING_REFRESH_SECONDS } from './render.tsx';
