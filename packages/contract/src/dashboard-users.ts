import { z } from 'zod';
import { DASHBOARD_MIN_PASSWORD_LENGTH, DashboardRoleSchema } from './dashboard.ts';
import { text } from './fields.ts';

/** A user of the session's account, as an admin lists them. */
export const DashboardUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: DashboardRoleSchema,
  created: z.number().int(),
});
export type DashboardUser = z.infer<typeof DashboardUserSchema>;

export const DashboardUserListSchema = z.object({ type: z.literal('list'), data: z.array(DashboardUserSchema) });
export type DashboardUserList = z.infer<typeof DashboardUserListSchema>;

/** An admin invites a user to the account by e-mail, with a role. */
export const InviteUserBodySchema = z.strictObject({
  email: z
    .email({ error: 'must be an e-mail address' })
    .max(254, { error: 'must be at most 254 characters' })
    .transform((email) => email.trim().toLowerCase()),
  role: DashboardRoleSchema,
});
export type InviteUserBody = z.infer<typeof InviteUserBodySchema>;

/** The invited user with a generated password: this answer is the only place it appears. */
export const InvitedUserSchema = DashboardUserSchema.extend({ password: z.string().min(DASHBOARD_MIN_PASSWORD_LENGTH) });
export type InvitedUser = z.infer<typeof InvitedUserSchema>;

export const RemovedUserSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type RemovedUser = z.infer<typeof RemovedUserSchema>;

/** Every user changes their own password; the change ends their other sessions. */
export const ChangePasswordBodySchema = z.strictObject({
  current_password: text(1024),
  new_password: text(1024, DASHBOARD_MIN_PASSWORD_LENGTH),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;
