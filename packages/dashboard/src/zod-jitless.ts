import { config } from 'zod';

// The page's CSP has no 'unsafe-eval'. zod probes for `new Function` while the contract's schemas are
// built at import, and the browser reports the refused probe as a violation: so this module is
// imported first, before any schema exists.
config({ jitless: true });
