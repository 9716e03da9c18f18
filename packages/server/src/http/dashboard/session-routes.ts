import { DashboardLoginBodySchema, DashboardLogoutSchema, DashboardSessionSchema, ErrorBodySchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { endSession, login, type SessionLifetime } from '../../services/dashboard-sessions.ts';
import { refuseOtherMethods } from '../routes/refuse-other-methods.ts';
import { clearSessionCookie, sessionOf, setSessionCookie } from './session-hooks.ts';

const sessionResponse = { 200: DashboardSessionSchema, default: ErrorBodySchema };

export function sessionRoutes(store: Store, deps: ServiceDeps, lifetime: SessionLifetime) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post('/login', { config: { dashboardPublic: true }, schema: { body: DashboardLoginBodySchema, response: sessionResponse } }, async (request, reply) => {
      const { token, session } = await login(store, deps, lifetime, { ...request.body, address: request.ip });
      setSessionCookie(request, reply, token, lifetime);
      return session.view;
    });

    api.post(
      '/logout',
      { config: { dashboardViewerMay: true }, schema: { response: { 200: DashboardLogoutSchema, default: ErrorBodySchema } } },
      async (request, reply) => {
        await endSession(store, sessionOf(request));
        clearSessionCookie(request, reply);
        return { ok: true as const };
      },
    );

    api.get('/session', { schema: { response: sessionResponse } }, async (request) => sessionOf(request).view);

    refuseOtherMethods(app, '/login', ['POST']);
    refuseOtherMethods(app, '/logout', ['POST']);
    refuseOtherMethods(app, '/session', ['GET']);
  };
}
