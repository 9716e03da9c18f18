import { createHash } from 'node:crypto';

/**
 * The page's only stylesheet, inlined and allowed by its hash in the CSP (no `unsafe-inline`).
 * Colours keep at least 4.5:1 contrast; focus is always visible; one column on phones.
 */
export const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:1rem;line-height:1.5;color:#1a1a1a;background:#f3f4f6}
.banner,.page,.footer{max-width:34rem;margin:0 auto;padding:0 1rem}
.banner{padding-top:1.25rem;padding-bottom:.75rem}
.service{margin:0;font-weight:600;color:#374151}
.page{padding-top:0;padding-bottom:1rem}
.card{background:#fff;border:1px solid #d1d5db;border-radius:.75rem;padding:1.25rem}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 .5rem}
p{margin:0 0 1rem}
.test-mode{border:2px solid #8a5a00;background:#fff4ce;color:#4a3000;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.test-mode strong{display:block;text-transform:uppercase;letter-spacing:.04em}
.test-mode p{margin:0}
.summary{margin:0 0 1.25rem;display:grid;grid-template-columns:minmax(6rem,auto) 1fr;gap:.5rem 1rem;border-top:1px solid #e5e7eb;padding-top:1rem}
.summary dt{color:#4b5563}
.summary dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.summary .amount{font-size:1.25rem}
.actions{display:flex;flex-direction:column;gap:.75rem;margin:0}
.actions p{margin:0}
button,.link-button{font:inherit;font-weight:600;min-height:2.75rem;padding:.625rem 1rem;border-radius:.5rem;cursor:pointer;text-align:center;text-decoration:none;display:inline-block}
button{width:100%}
.primary,.link-button{background:#1d4ed8;color:#fff;border:2px solid #1d4ed8}
.primary:hover,.link-button:hover{background:#1e40af;border-color:#1e40af}
.secondary{background:#fff;color:#1f2937;border:2px solid #4b5563}
.secondary:hover{background:#f3f4f6}
:focus{outline:3px solid #1d4ed8;outline-offset:2px}
:focus:not(:focus-visible){outline:none}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.hint{font-weight:600;color:#1f2937}
.status{border-left:4px solid #1d4ed8;padding-left:.75rem}
.code-form{display:flex;flex-direction:column;gap:.5rem;margin:0}
.code-form label{font-weight:600}
.code-form input{font:inherit;font-size:1.25rem;letter-spacing:.2em;min-height:2.75rem;padding:.5rem .75rem;border:2px solid #4b5563;border-radius:.5rem;width:100%;max-width:12rem}
.code-form input[aria-invalid="true"]{border-color:#b91c1c}
.code-form .actions{margin-top:.5rem}
.error{color:#b91c1c;font-weight:600;margin:0}
.link-button{margin-top:.25rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.footer{color:#4b5563;font-size:.875rem;padding-bottom:2rem}
@media (min-width:30rem){.actions{flex-direction:row}.actions button{flex:1}}
@media (prefers-reduced-motion:no-preference){button,.link-button{transition:background-color .15s}}
@media (forced-colors:active){.test-mode,.card{border-color:CanvasText}}
`.trim();

/** The CSP source that allows exactly this stylesheet. */
export const PAGE_CSS_HASH = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;
