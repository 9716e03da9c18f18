import { PAGE_SCRIPT, PAGE_SCRIPT_PATH } from '@payframe/threeds';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { awaitingShopper, bankAppAnswered, deviceAnswer, hasDevicePage, pageAnswer } from '../../domain/threeds-page-answers.ts';
import { isValidThreeDSParam } from '../../security/threeds-link.ts';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { findHostedCharge, type HostedCharge, recordHostedOutcome, takeThreeDSReturn } from '../../services/threeds-page.ts';
import { type Display, type PageContext, paymentOf, pendingPage, sendError, sendHosted, sendPage, sendSettled } from './threeds-view.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors per route: false sends no CORS headers. */
    cors?: false;
  }
}

/** The forms carry a few short fields; anything bigger is not from our pages. */
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
 * The hosted 3-D Secure pages (docs/api.md "The hosted 3-D Secure page", docs/three-d-secure.md)
 * at `/3d-secure/:id?paRes=…`, and the simulated banking app at `/3d-secure/:id/device?paRes=…`.
 * No API key: the paRes is the credential. GET only shows (except that the out-of-band waiting
 * page, once the banking app has answered, moves on); the POST of a page's form records the answer
 * through the lifecycle and answers 303 to the merchant's return URL (or, with `display=iframe`,
 * the completion page). Every other answer is an HTML page.
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

    /** The charge behind a request whose paRes is right for its id, with the page's context; else null. */
    const open = async (request: PageRequest): Promise<{ hosted: HostedCharge; context: PageContext } | null> => {
      const { id } = request.params;
      const body = isRecord(request.body) ? request.body : {};
      const paRes = single(body.paRes) ?? single(request.query.paRes);
      if (paRes === undefined || !isValidThreeDSParam(deps.secrets.threeDSKey, id, paRes)) return null;
      const hosted = await findHostedCharge(store, id, deps.clock.now());
      const display: Display = single(request.query.display) === 'iframe' ? 'iframe' : 'page';
      return hosted && { hosted, context: { id, paRes, display } };
    };
    const notFound = (request: FastifyRequest, reply: FastifyReply) => sendPage(request, reply, 404, { kind: 'not-found' });

    app.get(`/${PAGE_SCRIPT_PATH}`, options, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        // Its name carries its hash: a new script is a new URL.
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(PAGE_SCRIPT),
    );

    app.get('/:id', options, async (request: PageRequest, reply) => {
      const opened = await open(request);
      if (!opened) return notFound(request, reply);
      const { hosted, context } = opened;
      // The banking app has answered: only the waiting page's next refresh goes on to the merchant;
      // after it the link is spent like any other (no redirect loop). In the merchant's dialog every
      // view answers the completion page, which redirects nowhere.
      if (bankAppAnswered(hosted.state)) {
        if (context.display === 'iframe') return sendSettled(request, reply, hosted, 'iframe');
        // A HEAD (a link checker, a prefetch) is answered as the refresh would be, without taking the one trip back.
        if (request.method === 'HEAD') return sendSettled(request, reply, hosted, 'page');
        if (await takeThreeDSReturn(store, context.id, deps.clock.now())) return sendSettled(request, reply, hosted, 'page');
      }
      return sendHosted(request, reply, hosted, context);
    });

    app.post('/:id', options, async (request: PageRequest, reply) => {
      const opened = await open(request);
      if (!opened) return notFound(request, reply);
      const { hosted, context } = opened;
      const form = isRecord(request.body) ? request.body : {};
      const step = pageAnswer(hosted.state, form);
      // Not our form's answer: show the page as it stands, so the shopper can still choose.
      if (step.kind === 'invalid') return sendHosted(request, reply, hosted, context, 400);
      if (step.kind === 'notice') {
        if (!awaitingShopper(hosted.state)) return sendHosted(request, reply, hosted, context);
        return sendPage(request, reply, 200, pendingPage(hosted, context, step.notice), hosted, context.display);
      }
      const outcome = await recordHostedOutcome(store, deps, context.id, step.answer);
      if (outcome.kind === 'missing') return notFound(request, reply);
      if (outcome.kind === 'unchanged') return sendHosted(request, reply, outcome.hosted, context);
      if (outcome.hosted.state.threeDSStatus === 'PENDING') {
        return sendPage(request, reply, 200, pendingPage(outcome.hosted, context, 'wrong'), outcome.hosted, context.display);
      }
      return sendSettled(request, reply, outcome.hosted, context.display);
    });

    app.get('/:id/device', options, async (request: PageRequest, reply) => {
      const opened = await open(request);
      if (!opened || !hasDevicePage(opened.hosted.state)) return notFound(request, reply);
      const { hosted, context } = opened;
      if (awaitingShopper(hosted.state)) {
        return sendPage(request, reply, 200, { kind: 'oob-device', payment: paymentOf(hosted), paRes: context.paRes }, hosted);
      }
      return sendHosted(request, reply, hosted, { ...context, display: 'page' });
    });

    app.post('/:id/device', options, async (request: PageRequest, reply) => {
      const opened = await open(request);
      if (!opened || !hasDevicePage(opened.hosted.state)) return notFound(request, reply);
      const { context } = opened;
      const step = deviceAnswer(isRecord(request.body) ? request.body : {});
      if (!step) return sendHosted(request, reply, opened.hosted, { ...context, display: 'page' }, 400);
      const outcome = await recordHostedOutcome(store, deps, context.id, step.answer);
      if (outcome.kind === 'missing') return notFound(request, reply);
      if (outcome.kind === 'unchanged') return sendHosted(request, reply, outcome.hosted, { ...context, display: 'page' });
      const payment = paymentOf(outcome.hosted);
      const approved = step.answer.type === 'authenticate' && step.answer.result === 'success';
      return sendPage(request, reply, 200, { kind: 'oob-device-done', payment, approved }, outcome.hosted);
    });

    for (const url of ['/:id', '/:id/device']) {
      app.options(url, options, async (_request, reply) => reply.code(204).header('allow', ALLOW).send());
      app.route({
        method: ['PUT', 'PATCH', 'DELETE'],
        url,
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
    }
  };
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
