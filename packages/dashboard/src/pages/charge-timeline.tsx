import type { Event } from '@payframe/contract';
import { dateTime, label, money } from '../format.ts';

/** One item per event of the charge, oldest first, as its story reads. */
export function ChargeTimeline({ events }: { events: Event[] }) {
  const story = [...events].reverse();
  return (
    <ol class="timeline" data-testid="charge-timeline">
      {story.map((event) => (
        <li key={event.id} data-testid="timeline-item" data-event-name={event.name}>
          <span class="event-name">{label(event.name.replace(/^charge\./, ''))}</span>
          {event.data.refund !== undefined && <span> {money(event.data.refund.amount, event.data.refund.currency)}</span>}
          <time dateTime={new Date(event.created * 1000).toISOString()}> {dateTime(event.created)}</time>
        </li>
      ))}
    </ol>
  );
}
