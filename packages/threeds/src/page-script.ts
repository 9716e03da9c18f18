import { createHash } from 'node:crypto';
import { THREEDS_CLOSE, THREEDS_COMPLETE } from '@payframe/contract/three-ds-protocol';

/**
 * The pages' one script, served from Payframe (CSP `script-src 'self'`), never inline. It submits
 * the frictionless page's form (which has a button for browsers without JavaScript); in the
 * merchant's dialog it tells the parent when the shopper presses Esc (the parent never sees keys
 * pressed in the frame), and on the completion page posts the outcome. Both go to the return URL's
 * origin only, so no other page can read them.
 */
export const PAGE_SCRIPT = `(function () {
  var form = document.querySelector('form[data-auto-submit]');
  if (form) form.submit();
  var body = document.body;
  var origin = body.getAttribute('data-target-origin');
  if (origin && window.parent !== window) {
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') {
        window.parent.postMessage({ type: ${JSON.stringify(THREEDS_CLOSE)}, chargeId: body.getAttribute('data-charge-id') }, origin);
      }
    });
  }
  var done = document.getElementById('completion');
  if (done && window.parent !== window) {
    window.parent.postMessage({
      type: ${JSON.stringify(THREEDS_COMPLETE)},
      chargeId: done.getAttribute('data-charge-id'),
      status: done.getAttribute('data-status')
    }, done.getAttribute('data-target-origin'));
  }
})();
`;

/** Relative to a page at `{prefix}/{chargeId}`: the route serves it at `{prefix}/assets/page-<hash>.js`. */
export const PAGE_SCRIPT_PATH = `assets/page-${createHash('sha256').update(PAGE_SCRIPT).digest('hex').slice(0, 12)}.js`;
