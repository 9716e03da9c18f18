import type { ApiKeyRow, CreatedApiKeys } from '@payframe/contract';
import { useEffect, useState } from 'preact/hooks';
import { Confirm } from '../components/confirm.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { useDashboard } from '../context.ts';
import { useRealTime } from '../test-clock.tsx';
import { useAction } from '../use-action.ts';
import { useResource } from '../use-resource.ts';

export function KeysPage() {
  const { client, mode, canWrite } = useDashboard();
  const keys = useResource(() => client.listKeys(mode), [mode]);
  const [created, setCreated] = useState<CreatedApiKeys | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const action = useAction();
  useEffect(() => setCreated(null), [mode]);

  const create = async () => {
    const pair = await action.run(() => client.createKeys(mode));
    if (pair === undefined) return;
    setCreated(pair);
    keys.reload();
  };
  const revoke = async (id: string) => {
    const row = await action.run(() => client.revokeKey(mode, id));
    if (row === undefined) return;
    setRevoking(null);
    keys.reload();
  };

  return (
    <>
      <PageTitle title="API keys">API keys</PageTitle>
      <p>
        Secret keys (<code>sk_{mode}_…</code>) call the API from your server; publishable keys (<code>pk_{mode}_…</code>) only create tokens from the card
        widget.
      </p>
      {canWrite && (
        <button type="button" data-testid="key-create" disabled={action.busy} onClick={create}>
          Create a {mode} key pair
        </button>
      )}
      {created !== null && (
        <div class="created">
          <SecretOnce label="New secret key" secret={created.secretKey} testId="key-secret-once" />
          <p>
            Publishable key: <code class="wrap">{created.publishableKey}</code>
          </p>
        </div>
      )}
      <ErrorMessage error={action.error} testId="action-error" />
      <ErrorMessage error={keys.error} />
      <div class="table">
        <table>
          <caption class="sr-only">{`${mode === 'test' ? 'Test' : 'Live'} API keys`}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data?.data ?? []).map((key) => (
              <KeyRow
                key={key.id}
                row={key}
                canWrite={canWrite}
                confirming={revoking === key.id}
                busy={action.busy}
                onRevoke={() => setRevoking(key.id)}
                onConfirm={() => revoke(key.id)}
                onKeep={() => setRevoking(null)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

type RowProps = {
  row: ApiKeyRow;
  canWrite: boolean;
  confirming: boolean;
  busy: boolean;
  onRevoke: () => void;
  onConfirm: () => void;
  onKeep: () => void;
};

function KeyRow({ row, canWrite, confirming, busy, onRevoke, onConfirm, onKeep }: RowProps) {
  const dateTime = useRealTime();
  return (
    <tr data-testid="key-row" data-key-id={row.id}>
      <td>
        <code>{row.hint}</code>
      </td>
      <td>{row.kind}</td>
      <td data-label="Created">{dateTime(row.created)}</td>
      <td data-label="Last used">{row.last_used === null ? 'Never' : dateTime(row.last_used)}</td>
      <td>
        {row.revoked !== null ? (
          `Revoked ${dateTime(row.revoked)}`
        ) : confirming ? (
          <Confirm
            question={`Revoke ${row.hint}?`}
            consequence={`Requests with ${row.hint} will fail at once.`}
            confirmLabel={`Revoke ${row.hint}`}
            confirmTestId="key-revoke-confirm"
            busy={busy}
            onConfirm={onConfirm}
            onKeep={onKeep}
          />
        ) : (
          <span class="state-actions">
            Active
            {canWrite && (
              <button type="button" data-testid="key-revoke" aria-label={`Revoke ${row.hint}`} onClick={onRevoke}>
                Revoke…
              </button>
            )}
          </span>
        )}
      </td>
    </tr>
  );
}
