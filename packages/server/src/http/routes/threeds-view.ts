import { PayframeError } from '@payframe/contract';
import { TEST_ONE_TIME_CODE } from '@payframe/contract/test-cards';
import { type CodeNotice, contentSecurityPolicy, originOf, type PageModel, type PaymentSummary, renderPage, usesScript } from '@payframe/threeds';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_CODE_TRIES } from '../../domain/charge-lifecycle.ts';
import { linkStanding } from '../../domain/threeds-page-answers.ts';
import { type HostedCharge, returnLink } from '../../services/threeds-page.ts';

/**
 * How a hosted page is shown: `page` in the browser's window (framed by no one), `iframe` inside
 * the merchant's dialog (framed by the return URL's origin only; a settled answer gets the
 * completion page instead of the 303).
 */
export type Display = 'page' | 'iframe';

/** What a page request carries besides the charge: the link's paRes, where the page is shown, and the charge id. */
export type PageContext = { id: string; paRes: string; display: Display };

/**
 * The page for the charge as it stands. GET shows it (200); a POST that recorded nothing gets
 * 409 (already completed, or nothing to authenticate) or 410 (the charge has ended).
 */
export function sendHosted(request: FastifyRequest, reply: FastifyReply, hosted: HostedCharge, context: PageContext, status?: number) {
  const { charge } = hosted;
  // In the merchant's dialog, a link with nothing left to authenticate (settled, never needed, or
  // its charge ended) posts the 3-D Secure status as a settled challenge does: otherwise the dialog
  // would wait for the shopper to close it and resolve as canceled.
  if (context.display === 'iframe' && request.method === 'GET' && hosted.state.threeDSStatus !== 'PENDING') {
    return sendSettled(request, reply, hosted, 'iframe');
  }
  const payment = paymentOf(hosted);
  const link = returnLink(charge.return_url, charge.id, charge.threeds_status);
  const spent = request.method === 'POST' ? 409 : 200;
  const [code, model] = ((): [number, PageModel] => {
    switch (linkStanding(hosted.state)) {
      case 'ended':
        return [410, { kind: 'unavailable', payment, returnLink: link }];
      case 'awaiting':
        return [200, pendingPage(hosted, context, 'none')];
      case 'completed':
        return [spent, { kind: 'completed', payment, outcome: settledOutcome(charge.threeds_status), returnLink: link }];
      case 'not-needed':
        return [spent, { kind: 'not-needed', payment, returnLink: link }];
    }
  })();
  return sendPage(request, reply, status ?? code, model, hosted, context.display);
}

/** The page that asks the shopper (or the issuer) for an answer, by the card's scenario. */
export function pendingPage(hosted: HostedCharge, { id, paRes }: PageContext, notice: CodeNotice): PageModel {
  const { state } = hosted;
  const payment = paymentOf(hosted);
  switch (state.threeDSScenario) {
    case 'otp':
      return { kind: 'otp', payment, paRes, notice, triesLeft: MAX_CODE_TRIES - state.codeFailures, testCode: TEST_ONE_TIME_CODE };
    case 'out-of-band':
      return { kind: 'oob-waiting', payment, deviceLink: `${encodeURIComponent(id)}/device?${new URLSearchParams({ paRes })}` };
    case 'frictionless':
      return { kind: 'frictionless', payment, paRes };
    case 'rejected':
      return { kind: 'rejected', payment, paRes };
    case 'unavailable':
      return { kind: 'auth-unavailable', payment, paRes };
    default:
      return { kind: 'challenge', payment, paRes };
  }
}

/**
 * 3-D Secure is settled: back to the merchant. In the browser's window, 303 to the return URL with
 * the outcome; in the merchant's dialog, the completion page whose script posts it to the parent.
 */
export function sendSettled(request: FastifyRequest, reply: FastifyReply, hosted: HostedCharge, display: Display) {
  const { charge } = hosted;
  const link = returnLink(charge.return_url, charge.id, charge.threeds_status);
  if (display === 'page') {
    return reply.code(303).header('referrer-policy', 'no-referrer').header('location', link).send();
  }
  const model: PageModel = {
    kind: 'complete',
    payment: paymentOf(hosted),
    chargeId: charge.id,
    status: charge.threeds_status,
    transStatus: charge.threeds_trans_status,
    targetOrigin: originOf(charge.return_url) ?? 'null',
    returnLink: link,
  };
  return sendPage(request, reply, 200, model, hosted, display);
}

/**
 * Any page. The CSP lets forms go to the return URL's origin (for the 303) and, in the merchant's
 * dialog, lets only that origin frame the page; a page whose charge is unknown is framed by no one.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, status: number, model: PageModel, hosted?: HostedCharge, display: Display = 'page') {
  const returnUrl = hosted?.charge.return_url;
  const frameAncestor = display === 'iframe' && returnUrl ? returnUrl : null;
  const framing = frameAncestor && hosted ? { chargeId: hosted.charge.id, targetOrigin: originOf(frameAncestor) ?? 'null' } : undefined;
  const { html, lang } = renderPage(model, header(request, 'accept-language'), framing);
  reply.code(status).headers({
    'content-type': 'text/html; charset=utf-8',
    'content-language': lang,
    vary: 'Accept-Language',
    'content-security-policy': contentSecurityPolicy(returnUrl ? [returnUrl] : [], { script: usesScript(model, framing), frameAncestor }),
    'referrer-policy': 'no-referrer',
  });
  // Framing is the CSP's to decide: X-Frame-Options cannot name an origin.
  if (frameAncestor) reply.removeHeader('x-frame-options');
  else reply.header('x-frame-options', 'DENY');
  return reply.send(html);
}

/** Malformed bodies and outages get a page too, never the API's JSON. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PayframeError && error.code === 'SERVICE_UNAVAILABLE') {
    request.log.warn({ err: error.cause ?? error }, 'database unavailable');
    reply.header('retry-after', '1');
    return sendPage(request, reply, 503, { kind: 'error', reason: 'unavailable' });
  }
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return sendPage(request, reply, statusCode, { kind: 'error', reason: 'bad-request' });
  }
  request.log.error({ err: error }, '3-D Secure page failed');
  return sendPage(request, reply, 500, { kind: 'error', reason: 'unavailable' });
}

export function paymentOf({ charge, token, merchantName }: HostedCharge): PaymentSummary {
  return {
    merchantName,
    amount: charge.amount,
    currency: charge.currency,
    brand: token.brand,
    last4: token.last4,
    description: charge.description,
    mode: charge.mode,
  };
}

function settledOutcome(status: HostedCharge['charge']['threeds_status']): 'CHARGEABLE' | 'FAILED' | 'NOT_AVAILABLE' {
  return status === 'CHARGEABLE' || status === 'FAILED' ? status : 'NOT_AVAILABLE';
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
