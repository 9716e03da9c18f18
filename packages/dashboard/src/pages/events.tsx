import { EVENT_NAMES, type EventName } from '@payframe/contract';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { type Cursor, PAGE_QUERY, Pager } from '../components/pager.tsx';
import { useDashboard } from '../context.ts';
import { dateTime, label } from '../format.ts';
import { paths } from '../paths.ts';
import { useResource } from '../use-resource.ts';

export function EventsPage() {
  const { client, mode } = useDashboard();
  const [name, setName] = useState<EventName | ''>('');
  const [cursor, setCursor] = useState<Cursor>({});
  useEffect(() => setCursor({}), [mode]);
  const query = { ...PAGE_QUERY, ...(name === '' ? {} : { name }), ...cursor };
  const events = useResource(() => client.listEvents(mode, query), [mode, JSON.stringify(query)]);
  const rows = events.data?.data ?? [];

  return (
    <>
      <PageTitle title="Events">Events</PageTitle>
      <div class="filters">
        <label for="events-name">Event</label>
        <select
          id="events-name"
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value as EventName | '');
            setCursor({});
          }}
        >
          <option value="">All events</option>
          {EVENT_NAMES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      <ErrorMessage error={events.error} />
      <div class="table" aria-busy={events.loading}>
        <table>
          <caption class="sr-only">{`${mode === 'test' ? 'Test' : 'Live'} events, newest first`}</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Charge</th>
              <th scope="col">Charge status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((event) => (
              <tr key={event.id} data-testid="event-row" data-event-name={event.name}>
                <td>
                  {event.name}
                  <br />
                  <small>
                    <code>{event.id}</code>
                  </small>
                </td>
                <td>
                  <a href={paths.charge(event.data.object.id)}>{event.data.object.id}</a>
                </td>
                <td>{label(event.data.object.status)}</td>
                <td data-label="Created">{dateTime(event.created)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {events.data !== undefined && rows.length === 0 && <p>No events yet.</p>}
      <Pager cursor={cursor} hasMore={events.data?.has_more ?? false} ids={rows.map((event) => event.id)} onPage={setCursor} />
    </>
  );
}
