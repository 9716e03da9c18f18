import { EVENT_NAMES, type Event, type Mode, type WebhookEndpoint } from '@payframe/contract';
import type { DashboardClient } from '../api/client.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { useDashboard } from '../context.ts';
import { useAction } from '../use-action.ts';
import { type Resource, useResource } from '../use-resource.ts';
import { type Delivery, DeliveryTable } from './delivery-table.tsx';

/** How many of the newest events the page shows the deliveries of. */
const RECENT_EVENTS = 25;

/** The deliveries of `events`, in their order, each with its event's name and time. */
async function deliveriesOf(client: DashboardClient, mode: Mode, events: readonly Event[]): Promise<Delivery[]> {
  const lists = await Promise.all(events.map((event) => client.listDeliveries(mode, event.id)));
  return lists.flatMap((list, index) => {
    const event = events[index] as Event;
    return list.data.map((delivery) => ({ ...delivery, eventName: event.name, eventCreated: event.created }));
  });
}

/** The deliveries of the newest events, newest event first. */
export function useRecentDeliveries(version: number): Resource<Delivery[]> {
  const { client, mode } = useDashboard();
  return useResource(
    async (): Promise<Delivery[]> => deliveriesOf(client, mode, (await client.listEvents(mode, { limit: RECENT_EVENTS })).data),
    [mode, version],
  );
}

/**
 * An endpoint's deliveries among the newest events of the names it takes, newest event first: an
 * endpoint that takes only refunds finds its own among the newest refunds, however many other
 * events came after them.
 */
export function useEndpointDeliveries(endpoint: WebhookEndpoint, version: number): Resource<Delivery[]> {
  const { client, mode } = useDashboard();
  const names = EVENT_NAMES.every((name) => endpoint.events.includes(name)) ? [undefined] : endpoint.events;
  return useResource(async (): Promise<Delivery[]> => {
    const pages = await Promise.all(names.map((name) => client.listEvents(mode, { limit: RECENT_EVENTS, ...(name && { name }) })));
    // Each page is newest first and the sort is stable: events of one second keep their page's order.
    const newest = pages
      .flatMap((page) => page.data)
      .sort((a, b) => b.created - a.created)
      .slice(0, RECENT_EVENTS);
    return (await deliveriesOf(client, mode, newest)).filter((delivery) => delivery.endpoint === endpoint.id);
  }, [mode, endpoint.id, names.join(), version]);
}

/** A delivery names its endpoint by URL; one deleted since is named by its id. */
export function endpointUrl(endpoints: readonly WebhookEndpoint[], id: string): string {
  return endpoints.find((endpoint) => endpoint.id === id)?.url ?? `${id} (deleted)`;
}

/** `onResent` reloads every list of deliveries on the page: the opened endpoint's shows the resent one too. */
type Props = { deliveries: Resource<Delivery[]>; endpoints: readonly WebhookEndpoint[]; onResent: () => void };

/** The deliveries of the newest events, each with its endpoint's URL, its status and, for an admin, a resend. */
export function WebhookDeliveries({ deliveries, endpoints, onResent }: Props) {
  const { client, mode, canWrite } = useDashboard();
  const action = useAction();

  const resend = async (delivery: Delivery) => {
    if ((await action.run(() => client.resendEvent(mode, delivery.event, { endpoint: delivery.endpoint }))) !== undefined) onResent();
  };

  const rows = deliveries.data ?? [];
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Recent deliveries</h2>
      <ErrorMessage error={deliveries.error} />
      <ErrorMessage error={action.error} testId="action-error" />
      {deliveries.data !== undefined && rows.length === 0 && <p>No deliveries yet.</p>}
      {rows.length > 0 && (
        <DeliveryTable
          deliveries={rows}
          urlOf={(delivery) => endpointUrl(endpoints, delivery.endpoint)}
          rowTestId="delivery-row"
          last={{ heading: 'Last answer', cell: (delivery) => delivery.last_status_code ?? delivery.last_error ?? '—' }}
          action={
            canWrite
              ? {
                  heading: 'Resend',
                  cell: (delivery, url) => (
                    <button
                      type="button"
                      data-testid="delivery-resend"
                      aria-label={`Resend ${delivery.eventName} to ${url}`}
                      disabled={action.busy}
                      onClick={() => resend(delivery)}
                    >
                      Resend
                    </button>
                  ),
                }
              : undefined
          }
        />
      )}
    </section>
  );
}
