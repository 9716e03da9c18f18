import type { WebhookEndpoint } from '@payframe/contract';
import { dateTime } from '../format.ts';
import { type Delivery, DeliveryTable } from './delivery-table.tsx';

type Props = { endpoint: WebhookEndpoint; deliveries: readonly Delivery[] | undefined; onClose: () => void };

/** One endpoint opened: what it takes, and what it received among the newest events. */
export function WebhookDetail({ endpoint, deliveries, onClose }: Props) {
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
        <DeliveryTable
          deliveries={own}
          urlOf={() => endpoint.url}
          rowTestId="webhook-detail-delivery"
          caption={`Recent deliveries to ${endpoint.url}`}
          last={{ heading: 'Last error', cell: lastError }}
        />
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}

/** Why the endpoint did not take it: the error, or the HTTP status it answered with. */
function lastError(delivery: Delivery): string {
  return delivery.last_error ?? (delivery.last_status_code !== null && delivery.status !== 'succeeded' ? `HTTP ${delivery.last_status_code}` : '—');
}
