import type { CreatedWebhookEndpoint } from '@payframe/contract';
import { useEffect, useState } from 'preact/hooks';
import { Confirm } from '../components/confirm.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { useDashboard } from '../context.ts';
import { dateTime } from '../format.ts';
import { useAction } from '../use-action.ts';
import { useResource } from '../use-resource.ts';
import { WebhookDeliveries } from './webhook-deliveries.tsx';

export function WebhooksPage() {
  const { client, mode, canWrite } = useDashboard();
  const endpoints = useResource(() => client.listWebhookEndpoints(mode), [mode]);
  const [url, setUrl] = useState('');
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [version, setVersion] = useState(0);
  const [deleting, setDeleting] = useState<string | null>(null);
  const add = useAction();
  const remove = useAction();
  useEffect(() => setCreated(null), [mode]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const endpoint = await add.run(() => client.createWebhookEndpoint(mode, { url: url.trim() }));
    if (endpoint === undefined) return;
    setCreated(endpoint);
    setUrl('');
    endpoints.reload();
  };
  const deleteEndpoint = async (id: string) => {
    if ((await remove.run(() => client.deleteWebhookEndpoint(mode, id))) === undefined) return;
    setDeleting(null);
    endpoints.reload();
    setVersion((value) => value + 1);
  };

  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <p>Payframe POSTs every {mode}-mode event to these URLs, signed with the endpoint's secret (Standard Webhooks).</p>
      {canWrite && (
        <form class="inline-form" onSubmit={submit}>
          <label for="webhook-url">Endpoint URL</label>
          <input
            id="webhook-url"
            data-testid="webhook-url"
            type="url"
            required
            placeholder="https://example.com/payframe/webhooks"
            value={url}
            onInput={(event) => setUrl(event.currentTarget.value)}
          />
          <button type="submit" data-testid="webhook-add" disabled={add.busy}>
            Add endpoint
          </button>
          <ErrorMessage error={add.error} testId="action-error" />
        </form>
      )}
      {created !== null && <SecretOnce label={`Signing secret of ${created.url}`} secret={created.secret} testId="webhook-secret-once" />}
      <ErrorMessage error={endpoints.error} />
      <ErrorMessage error={remove.error} />
      <ul class="endpoints">
        {(endpoints.data?.data ?? []).map((endpoint) => (
          <li key={endpoint.id} data-testid="webhook-row">
            <code class="wrap">{endpoint.url}</code>
            <span>
              {endpoint.events.length} event {endpoint.events.length === 1 ? 'type' : 'types'} · added {dateTime(endpoint.created)} · <code>{endpoint.id}</code>
            </span>
            {endpoint.description !== null && endpoint.description !== '' && <span>{endpoint.description}</span>}
            {canWrite && deleting !== endpoint.id && (
              <button type="button" aria-label={`Delete ${endpoint.url}`} onClick={() => setDeleting(endpoint.id)}>
                Delete…
              </button>
            )}
            {canWrite && deleting === endpoint.id && (
              <Confirm
                question={`Delete ${endpoint.url}?`}
                consequence="Its pending deliveries end."
                confirmLabel={`Delete ${endpoint.url}`}
                busy={remove.busy}
                onConfirm={() => deleteEndpoint(endpoint.id)}
                onKeep={() => setDeleting(null)}
              />
            )}
          </li>
        ))}
      </ul>
      {endpoints.data !== undefined && endpoints.data.data.length === 0 && <p>No endpoints yet.</p>}
      <WebhookDeliveries version={version} />
    </>
  );
}
