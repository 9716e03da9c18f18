import { DASHBOARD_ROLES, type DashboardRole, type InvitedUser } from '@payframe/contract';
import { useState } from 'preact/hooks';
import { Confirm } from '../components/confirm.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { useDashboard } from '../context.ts';
import { dateTime } from '../format.ts';
import { useAction } from '../use-action.ts';
import { useResource } from '../use-resource.ts';

/** An admin's view of who can sign in to the account: invite by e-mail and role, remove. */
export function Users() {
  const { client, session } = useDashboard();
  const users = useResource(() => client.listUsers(), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<DashboardRole>('viewer');
  const [invited, setInvited] = useState<InvitedUser | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const invite = useAction();
  const remove = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    setInvited(null);
    const user = await invite.run(() => client.inviteUser({ email: email.trim(), role }));
    if (user === undefined) return;
    setInvited(user);
    setEmail('');
    users.reload();
  };
  const removeUser = async (id: string) => {
    if ((await remove.run(() => client.removeUser(id))) === undefined) return;
    setRemoving(null);
    users.reload();
  };

  return (
    <section class="users" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <form class="inline-form" onSubmit={submit} aria-label="Invite a user">
        <label for="users-invite-email">E-mail</label>
        <input
          id="users-invite-email"
          data-testid="users-invite-email"
          type="email"
          required
          maxLength={254}
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
        <label for="users-invite-role">Role</label>
        <select id="users-invite-role" data-testid="users-invite-role" value={role} onChange={(event) => setRole(event.currentTarget.value as DashboardRole)}>
          {DASHBOARD_ROLES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button type="submit" data-testid="users-invite-submit" disabled={invite.busy}>
          Invite
        </button>
        <ErrorMessage error={invite.error} testId="action-error" />
      </form>
      {invited !== null && <SecretOnce label={`One-time password of ${invited.email}`} secret={invited.password} testId="users-password" />}
      <ErrorMessage error={users.error} />
      <ErrorMessage error={remove.error} />
      <div class="table">
        <table>
          <caption class="sr-only">Users of the account</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Added</th>
              <th scope="col">Remove</th>
            </tr>
          </thead>
          <tbody>
            {(users.data?.data ?? []).map((user) => (
              <tr key={user.id} data-testid="users-row" data-email={user.email} data-role={user.role}>
                <td class="wrap">{user.email}</td>
                <td>{user.role}</td>
                <td data-label="Added">{dateTime(user.created)}</td>
                <td>
                  {user.email === session.user.email ? (
                    'You'
                  ) : removing === user.id ? (
                    <Confirm
                      question={`Remove ${user.email}?`}
                      consequence="They are signed out at once."
                      confirmLabel={`Remove ${user.email}`}
                      confirmTestId="users-remove-confirm"
                      busy={remove.busy}
                      onConfirm={() => removeUser(user.id)}
                      onKeep={() => setRemoving(null)}
                    />
                  ) : (
                    <button type="button" data-testid="users-remove" aria-label={`Remove ${user.email}`} onClick={() => setRemoving(user.id)}>
                      Remove…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
