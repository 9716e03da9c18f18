import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { useDashboard } from '../context.ts';
import { useAction } from '../use-action.ts';
import { useResource } from '../use-resource.ts';
import { ChangePassword } from './settings-password.tsx';
import { Users } from './settings-users.tsx';
import '../merchant.css';

export function SettingsPage() {
  const { client, canWrite, setAccountName } = useDashboard();
  const account = useResource(() => client.getAccount(), []);
  const [name, setName] = useState('');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (account.data !== undefined) setName(account.data.name);
  }, [account.data]);

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const updated = await action.run(() => client.updateAccount({ name: name.trim() }));
    if (updated === undefined) return;
    account.set(updated);
    setAccountName(updated.name);
    setSaved(true);
  };

  return (
    <>
      <PageTitle title="Settings">Settings</PageTitle>
      <ErrorMessage error={account.error} />
      {account.data !== undefined && (
        <form class="stacked-form" onSubmit={save}>
          <label for="account-name">Account name</label>
          <p id="account-name-help" class="help">
            Shoppers see it on the 3-D Secure page as the merchant they pay.
          </p>
          <input
            id="account-name"
            data-testid="account-name"
            required
            maxLength={100}
            readOnly={!canWrite}
            aria-describedby="account-name-help"
            value={name}
            onInput={(event) => {
              setName(event.currentTarget.value);
              setSaved(false);
            }}
          />
          {canWrite && (
            <button type="submit" data-testid="account-save" disabled={action.busy}>
              Save
            </button>
          )}
          <p role="status">{saved ? 'Saved.' : ''}</p>
          <ErrorMessage error={action.error} testId="action-error" />
        </form>
      )}
      <p>
        Account id: <code>{account.data?.id}</code>
      </p>
      <ChangePassword />
      {canWrite && <Users />}
    </>
  );
}
