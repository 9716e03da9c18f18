import { type CreatedWebhookEndpoint, EVENT_NAMES, type WebhookEndpoint } from '@payframe/contract';
import { useState } from 'preact/hooks';
import { Confirm } from '../components/confirm.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { useDashboard } from '../context.ts';
import { dateTime } from '../format.ts';
import { useAction } from '../use-action.ts';
import { useResource } from '../use-resource.ts';
import { useRecentDeliveries, WebhookDeliveries } from './webhook-deliveries.tsx';
import { WebhookDetail } from './webhook-detail.tsx';
import '../merchant.css';

export function WebhooksPage() {
  const { client, mode, canWrite } = useDashboard();
  const endpoints = useResource(() => client.listWebhookEndpoints(mode, { limit: 100 }), [mode]);
  // Kept with the mode they belong to: switching modes hides them without an effect racing the page's first clicks.
  const [createdIn, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const created = createdIn?.mode === mode ? createdIn : null;
  const [version, setVersion] = useState(0);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useRecentDeliveries(version);
  const remove = useAction();
  const toggle = useAction();

  const list = endpoints.data?.data ?? [];
  const opened = list.find((endpoint) => endpoint.id === open && endpoint.mode === mode);
  const deleteEndpoint = async (id: string) => {
    if ((await remove.run(() => client.deleteWebhookEndpoint(mode, id))) === undefined) return;
    setDeleting(null);
    if (open === id) setOpen(null);
    endpoints.reload();
    setVersion((value) => value + 1);
  };
  const setDisabled = async (endpoint: WebhookEndpoint) => {
    const updated = await toggle.run(() => client.updateWebhookEndpoint(mode, endpoint.id, { disabled: !endpoint.disabled }));
    if (updated !== undefined && endpoints.data) endpoints.set({ ...endpoints.data, data: list.map((row) => (row.id === updated.id ? updated : row)) });
  };

  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <p>Payframe POSTs {mode}-mode events to these URLs, signed with the endpoint's secret (Standard Webhooks).</p>
      {canWrite && (
        <AddEndpoint
          onAdded={(endpoint) => {
            setCreated(endpoint);
            endpoints.reload();
          }}
        />
      )}
      {created !== null && <SecretOnce label={`Signing secret of ${created.url}`} secret={created.secret} testId="webhook-secret-once" />}
      <ErrorMessage error={endpoints.error} />
      <ErrorMessage error={remove.error} />
      <ErrorMessage error={toggle.error} testId="action-error" />
      <ul class="endpoints">
        {list.map((endpoint) => (
          // The row opens on a click anywhere for the mouse; keyboard users have its own button.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the row's button is the keyboard's way in
          <li
            key={endpoint.id}
            data-testid="webhook-row"
            data-endpoint-id={endpoint.id}
            data-disabled={endpoint.disabled}
            onClick={(event) => {
              if (!(event.target as HTMLElement).closest('button:not(.endpoint-open), .confirm')) setOpen(endpoint.id);
            }}
          >
            <button type="button" class="endpoint-open" aria-expanded={open === endpoint.id} onClick={() => setOpen(endpoint.id)}>
              {endpoint.url}
            </button>
            <span>
              {endpoint.disabled ? 'Disabled · ' : ''}
              {endpoint.events.length} event {endpoint.events.length === 1 ? 'type' : 'types'} · added {dateTime(endpoint.created)}
            </span>
            {endpoint.description !== null && endpoint.description !== '' && <span>{endpoint.description}</span>}
            {canWrite && (
              <button
                type="button"
                data-testid="webhook-toggle"
                aria-pressed={endpoint.disabled}
                aria-label={`${endpoint.disabled ? 'Enable' : 'Disable'} ${endpoint.url}`}
                disabled={toggle.busy}
                onClick={() => setDisabled(endpoint)}
              >
                {endpoint.disabled ? 'Enable' : 'Disable'}
              </button>
            )}
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
      {endpoints.data !== undefined && list.length === 0 && <p>No endpoints yet.</p>}
      {opened !== undefined && <WebhookDetail endpoint={opened} version={version} onClose={() => setOpen(null)} />}
      <WebhookDeliveries deliveries={deliveries} endpoints={list} onResent={() => setVersion((value) => value + 1)} />
    </>
  );
}

/** The URL, a description, and the events it takes (every one unless unticked). */
function AddEndpoint({ onAdded }: { onAdded: (endpoint: CreatedWebhookEndpoint) => void }) {
  const { client, mode } = useDashboard();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...EVENT_NAMES]);
  const add = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const every = events.length === EVENT_NAMES.length;
    const endpoint = await add.run(() =>
      client.createWebhookEndpoint(mode, {
        url: url.trim(),
        ...(every ? {} : { events }),
        ...(description.trim() === '' ? {} : { description: description.trim() }),
      }),
    );
    if (endpoint === undefined) return;
    setUrl('');
    setDescription('');
    setEvents([...EVENT_NAMES]);
    onAdded(endpoint);
  };

  return (
    <form class="stacked-form" onSubmit={submit} aria-label="Add an endpoint">
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
      <label for="webhook-description">Description (optional)</label>
      <input
        id="webhook-description"
        data-testid="webhook-description"
        maxLength={1000}
        value={description}
        onInput={(event) => setDescription(event.currentTarget.value)}
      />
      <fieldset class="event-names" data-testid="webhook-events">
        <legend>Events it receives</legend>
        {EVENT_NAMES.map((name) => (
          <label key={name}>
            <input
              type="checkbox"
              name="events"
              value={name}
              checked={events.includes(name)}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setEvents((current) =>
                  checked ? EVENT_NAMES.filter((known) => known === name || current.includes(known)) : current.filter((kept) => kept !== name),
                );
              }}
            />
            {name}
          </label>
        ))}
      </fieldset>
      {events.length === 0 && <p class="error">Choose at least one event.</p>}
      <div class="buttons">
        <button type="submit" data-testid="webhook-add" disabled={add.busy || events.length === 0}>
          Add endpoint
        </button>
      </div>
      <ErrorMessage error={add.error} testId="action-error" />
    </form>
  );
}
