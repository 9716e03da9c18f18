import { PayframeError } from '@payframe/contract';
import { contentSecurityPolicy, type PageModel, type PaymentSummary, renderPage } from '@payframe/threeds';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidThreeDSParam } from '../../security/threeds-link.ts';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { findHostedCharge, type HostedCharge, recordHostedOutcome, returnLink } from '../../services/threeds-page.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors per route: false sends no CORS headers. */
    cors?: false;
  }
}

/** The form carries two short fields; anything bigger is not from our page. */
const FORM_LIMIT = 4 * 1024;
const ALLOW = 'GET, HEAD, POST';

/** Helmet's defaults, except the CSP (each page sets its own, with the return origin) and framing. */
const PAGE_HELMET = {
  contentSecurityPolicy: false,
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
} as const;

type PageRequest = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, unknown>; Body: unknown }>;

/**
 * The hosted 3-D Secure page (docs/api.md "The hosted 3-D Secure page") at
 * `/3d-secure/:id?paRes=…`. No API key: the paRes is the credential. GET only shows; the POST of
 * the page's form records the outcome through the lifecycle and answers 303 to the merchant's
 * return URL. Every other answer is an HTML page.
 */
export function threeDSPageRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
    app.setNotFoundHandler((request, reply) => sendPage(request, reply, 404, { kind: 'not-found' }));

    const options = { helmet: PAGE_HELMET, config: { cors: false }, schema: { hide: true } } as const;
    const validLink = (id: string, paRes: string | undefined): paRes is string =>
      paRes !== undefined && isValidThreeDSParam(deps.secrets.threeDSKey, id, paRes);

    app.get('/:id', options, async (request: PageRequest, reply) => {
      const { id } = request.params;
      const paRes = single(request.query.paRes);
      if (!validLink(id, paRes)) return sendPage(request, reply, 404, { kind: 'not-found' });
      const hosted = await findHostedCharge(store, id, deps.clock.now());
      if (!hosted) return sendPage(request, reply, 404, { kind: 'not-found' });
      return sendHosted(request, reply, hosted, paRes);
    });

    app.post('/:id', options, async (request: PageRequest, reply) => {
      const { id } = request.params;
      const body = isRecord(request.body) ? request.body : {};
      const paRes = single(body.paRes) ?? single(request.query.paRes);
      if (!validLink(id, paRes)) return sendPage(request, reply, 404, { kind: 'not-found' });
      const result = body.result;
      if (result !== 'success' && result !== 'failure') {
        // Not our form's answer: show the page as it stands, so the shopper can still choose.
        const hosted = await findHostedCharge(store, id, deps.clock.now());
        if (!hosted) return sendPage(request, reply, 404, { kind: 'not-found' });
        return sendHosted(request, reply, hosted, paRes, 400);
      }
      const outcome = await recordHostedOutcome(store, deps, id, result);
      if (outcome.kind === 'missing') return sendPage(request, reply, 404, { kind: 'not-found' });
      if (outcome.kind === 'unchanged') return sendHosted(request, reply, outcome.hosted, paRes);
      return reply
        .code(303)
        .header('referrer-policy', 'no-referrer')
        .header('location', returnLink(outcome.returnUrl, id, outcome.status))
        .send();
    });

    app.options('/:id', options, async (_request, reply) =>
      reply.code(204).header('allow', ALLOW).send(),
    );
    app.route({
      method: ['PUT', 'PATCH', 'DELETE'],
      url: '/:id',
      ...options,
      // Before the body is read: the method is wrong whatever the body.
      onRequest: async (request, reply) => {
        reply.header('allow', ALLOW);
        return sendPage(request, reply, 405, { kind: 'error', reason: 'method-not-allowed' });
      },
      handler: async () => {
        throw new Error('unreachable: onRequest answers 405');
      },
    });
  };
}

/**
 * The page for the charge as it stands. GET shows it (200); a POST that recorded nothing gets
 * 409 (already completed, or nothing to authenticate) or 410 (the charge has ended).
 */
function sendHosted(request: FastifyRequest, reply: FastifyReply, hosted: HostedCharge, paRes: string, status?: number) {
  const { charge, token, merchantName } = hosted;
  const payment: PaymentSummary = {
    merchantName,
    amount: charge.amount,
    currency: charge.currency,
    brand: token.brand,
    last4: token.last4,
    description: charge.description,
    mode: charge.mode,
  };
  const link = returnLink(charge.return_url, charge.id, charge.threeds_status);
  const spent = request.method === 'POST' ? 409 : 200;
  const [code, model]: [number, PageModel] =
    charge.status !== 'PENDING'
      ? [410, { kind: 'unavailable', payment, returnLink: link }]
      : charge.threeds_status === 'PENDING'
        ? [200, { kind: 'challenge', payment, paRes }]
        : charge.threeds_status === 'CHARGEABLE' || charge.threeds_status === 'FAILED'
          ? [spent, { kind: 'completed', payment, outcome: charge.threeds_status, returnLink: link }]
          : [spent, { kind: 'not-needed', payment, returnLink: link }];
  return sendPage(request, reply, status ?? code, model, [charge.return_url]);
}

function sendPage(request: FastifyRequest, reply: FastifyReply, status: number, model: PageModel, formTargets: string[] = []) {
  const { html, lang } = renderPage(model, header(request, 'accept-language'));
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-language': lang,
      vary: 'Accept-Language',
      'content-security-policy': contentSecurityPolicy(formTargets),
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    })
    .send(html);
}

/** Malformed bodies and outages get a page too, never the API's JSON. */
function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
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

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
