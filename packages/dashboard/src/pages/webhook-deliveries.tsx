import type { Event, WebhookDelivery, WebhookEndpoint } from '@payframe/contract';
import { ErrorMessage } from '../components/error-message.tsx';
import { useDashboard } from '../context.ts';
import { dateTime, label } from '../format.ts';
import { useRealTime } from '../test-clock.tsx';
import { useAction } from '../use-action.ts';
import { type Resource, useResource } from '../use-resource.ts';

/** How many of the newest events the page shows the deliveries of. */
const RECENT_EVENTS = 25;

export type Delivery = WebhookDelivery & { eventName: Event['name']; eventCreated: number };

/** The deliveries of the newest events, newest event first. */
export function useRecentDeliveries(version: number): Resource<Delivery[]> {
  const { client, mode } = useDashboard();
  return useResource(async (): Promise<Delivery[]> => {
    const events = await client.listEvents(mode, { limit: RECENT_EVENTS });
    const lists = await Promise.all(events.data.map((event) => client.listDeliveries(mode, event.id)));
    return lists.flatMap((list, index) => {
      const event = events.data[index] as Event;
      return list.data.map((delivery) => ({ ...delivery, eventName: event.name, eventCreated: event.created }));
    });
  }, [mode, version]);
}

/** A delivery names its endpoint by URL; one deleted since is named by its id. */
export function endpointUrl(endpoints: readonly WebhookEndpoint[], id: string): string {
  return endpoints.find((endpoint) => endpoint.id === id)?.url ?? `${id} (deleted)`;
}

type Props = { deliveries: Resource<Delivery[]>; endpoints: readonly WebhookEndpoint[] };

/** The deliveries of the newest events, each with its endpoint's URL, its status and, for an admin, a resend. */
export function WebhookDeliveries({ deliveries, endpoints }: Props) {
  const { client, mode, canWrite } = useDashboard();
  const action = useAction();
  const realTime = useRealTime();

  const resend = async (delivery: Delivery) => {
    if ((await action.run(() => client.resendEvent(mode, delivery.event, { endpoint: delivery.endpoint }))) !== undefined) deliveries.reload();
  };

  const rows = deliveries.data ?? [];
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Recent deliveries</h2>
      <ErrorMessage error={deliveries.error} />
      <ErrorMessage error={action.error} testId="action-error" />
      {deliveries.data !== undefined && rows.length === 0 && <p>No deliveries yet.</p>}
      {rows.length > 0 && (
        <div class="table">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                {canWrite && <th scope="col">Resend</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((delivery, index) => {
                const url = endpointUrl(endpoints, delivery.endpoint);
                return (
                  <tr key={`${delivery.event}-${delivery.endpoint}-${index}`} data-testid="delivery-row" data-status={delivery.status}>
                    <td>
                      {delivery.eventName}
                      <br />
                      <small>{dateTime(delivery.eventCreated)}</small>
                    </td>
                    <td class="wrap">
                      <code>{url}</code>
                    </td>
                    <td>
                      {label(delivery.status)}
                      {delivery.next_attempt !== null && <small> · next {realTime(delivery.next_attempt)}</small>}
                    </td>
                    <td data-label="Attempts">{delivery.attempts}</td>
                    <td data-label="Last answer">{delivery.last_status_code ?? delivery.last_error ?? '—'}</td>
                    {canWrite && (
                      <td>
                        <button
                          type="button"
                          data-testid="delivery-resend"
                          aria-label={`Resend ${delivery.eventName} to ${url}`}
                          disabled={action.busy}
                          onClick={() => resend(delivery)}
                        >
                          Resend
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
