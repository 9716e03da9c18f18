import type { Event, WebhookDelivery } from '@payframe/contract';
import type { ComponentChildren } from 'preact';
import { dateTime, label } from '../format.ts';
import { useRealTime } from '../test-clock.tsx';

/** A delivery with the name and time of the event it carries. */
export type Delivery = WebhookDelivery & { eventName: Event['name']; eventCreated: number };

type Props = {
  deliveries: readonly Delivery[];
  /** The URL a delivery went to. */
  urlOf: (delivery: Delivery) => string;
  /** Each row's data-testid. */
  rowTestId: string;
  caption?: string;
  /** The last column: its heading and what it shows of a delivery. */
  last: { heading: string; cell: (delivery: Delivery) => ComponentChildren };
  /** A column of actions after it, where the user may act. */
  action?: { heading: string; cell: (delivery: Delivery, url: string) => ComponentChildren };
};

/** Deliveries as rows: the event, the endpoint's URL, the status with its next attempt, and the attempts so far. */
export function DeliveryTable({ deliveries, urlOf, rowTestId, caption, last, action }: Props) {
  const realTime = useRealTime();
  return (
    <div class="table">
      <table>
        {caption !== undefined && <caption class="sr-only">{caption}</caption>}
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">{last.heading}</th>
            {action && <th scope="col">{action.heading}</th>}
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery, index) => {
            const url = urlOf(delivery);
            return (
              <tr key={`${delivery.event}-${delivery.endpoint}-${index}`} data-testid={rowTestId} data-status={delivery.status}>
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
                <td data-label={last.heading}>{last.cell(delivery)}</td>
                {action && <td>{action.cell(delivery, url)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
