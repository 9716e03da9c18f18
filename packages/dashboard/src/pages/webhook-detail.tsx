import type { WebhookEndpoint } from '@payframe/contract';
import { dateTime, label } from '../format.ts';
import { useRealTime } from '../test-clock.tsx';
import type { Delivery } from './webhook-deliveries.tsx';

type Props = { endpoint: WebhookEndpoint; deliveries: readonly Delivery[] | undefined; onClose: () => void };

/** One endpoint opened: what it takes, and what it received among the newest events. */
export function WebhookDetail({ endpoint, deliveries, onClose }: Props) {
  const realTime = useRealTime();
  const own = (deliveries ?? []).filter((delivery) => delivery.endpoint === endpoint.id);
  return (
    <section class="webhook-detail" data-testid="webhook-detail" data-endpoint-id={endpoint.id} aria-labelledby="webhook-detail-title">
      <h2 id="webhook-detail-title" class="wrap">
        {endpoint.url}
      </h2>
      <p>
        {endpoint.disabled ? 'Disabled: it receives no new deliveries.' : 'Enabled.'} {endpoint.description ? `${endpoint.description}. ` : ''}
        Added {dateTime(endpoint.created)}. Takes: {endpoint.events.join(', ')}.
      </p>
      {deliveries !== undefined && own.length === 0 && <p>No deliveries among the newest events.</p>}
      {own.length > 0 && (
        <div class="table">
          <table>
            <caption class="sr-only">{`Recent deliveries to ${endpoint.url}`}</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {own.map((delivery, index) => (
                <tr key={`${delivery.event}-${index}`} data-testid="webhook-detail-delivery" data-status={delivery.status}>
                  <td>
                    {delivery.eventName}
                    <br />
                    <small>{dateTime(delivery.eventCreated)}</small>
                  </td>
                  <td class="wrap">
                    <code>{endpoint.url}</code>
                  </td>
                  <td>
                    {label(delivery.status)}
                    {delivery.next_attempt !== null && <small> · next {realTime(delivery.next_attempt)}</small>}
                  </td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td data-label="Last error">
                    {delivery.last_error ?? (delivery.last_status_code !== null && delivery.status !== 'succeeded' ? `HTTP ${delivery.last_status_code}` : '—')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
