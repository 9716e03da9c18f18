import type { WebhookEndpoint } from '@payframe/contract';
import { ErrorMessage } from '../components/error-message.tsx';
import { dateTime } from '../format.ts';
import { type Delivery, DeliveryTable } from './delivery-table.tsx';
import { useEndpointDeliveries } from './webhook-deliveries.tsx';

type Props = { endpoint: WebhookEndpoint; version: number; onClose: () => void };

/** One endpoint opened: what it takes, and what it received among the newest events of those names. */
export function WebhookDetail({ endpoint, version, onClose }: Props) {
  const deliveries = useEndpointDeliveries(endpoint, version);
  const own = deliveries.data ?? [];
  return (
    <section class="webhook-detail" data-testid="webhook-detail" data-endpoint-id={endpoint.id} aria-labelledby="webhook-detail-title">
      <h2 id="webhook-detail-title" class="wrap">
        {endpoint.url}
      </h2>
      <p>
        {endpoint.disabled ? 'Disabled: it receives no new deliveries.' : 'Enabled.'} {endpoint.description ? `${endpoint.description}. ` : ''}
        Added {dateTime(endpoint.created)}. Takes: {endpoint.events.join(', ')}.
      </p>
      <ErrorMessage error={deliveries.error} />
      {deliveries.data !== undefined && own.length === 0 && <p>No deliveries among the newest events it takes.</p>}
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
