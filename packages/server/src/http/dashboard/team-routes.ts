import {
  ChangePasswordBodySchema,
  DashboardLogoutSchema,
  DashboardUserListSchema,
  ErrorBodySchema,
  InvitedUserSchema,
  InviteUserBodySchema,
  PayframeError,
  RemovedUserSchema,
  ResourceIdParamsSchema,
} from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { changeOwnPassword, inviteUser, listTeam, removeUser } from '../../services/dashboard-team.ts';
import { refuseOtherMethods } from '../routes/refuse-other-methods.ts';
import { sessionOf } from './session-hooks.ts';

const errors = { default: ErrorBodySchema };

/** The account's users, managed by an admin (the gate refuses a viewer's mutation), and each user's own password. */
export function teamRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get('/users', { schema: { response: { 200: DashboardUserListSchema, ...errors } } }, async (request) => {
      const session = sessionOf(request);
      // Who else has access is an admin's business: a viewer does not see the list.
      if (session.role !== 'admin') throw new PayframeError('ROLE_NOT_ALLOWED');
      return store.read((db) => listTeam(db, session.accountId));
    });
    api.post('/users', { schema: { body: InviteUserBodySchema, response: { 200: InvitedUserSchema, ...errors } } }, async (request) =>
      inviteUser(store, deps, sessionOf(request).accountId, request.body),
    );
    api.delete('/users/:id', { schema: { params: ResourceIdParamsSchema, response: { 200: RemovedUserSchema, ...errors } } }, async (request) =>
      removeUser(store, sessionOf(request), request.params.id),
    );
    api.post(
      '/password',
      { config: { dashboardViewerMay: true }, schema: { body: ChangePasswordBodySchema, response: { 200: DashboardLogoutSchema, ...errors } } },
      async (request) => changeOwnPassword(store, deps, sessionOf(request), request.body),
    );

    refuseOtherMethods(app, '/users', ['GET', 'POST']);
    refuseOtherMethods(app, '/users/:id', ['DELETE']);
    refuseOtherMethods(app, '/password', ['POST']);
  };
}
