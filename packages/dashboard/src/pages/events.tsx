import { EVENT_NAMES, type EventName } from '@payframe/contract';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { FilterSelect } from '../components/filter-select.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { type Cursor, PAGE_QUERY, Pager } from '../components/pager.tsx';
import { useDashboard } from '../context.ts';
import { dateTime, label } from '../format.ts';
import { paths } from '../paths.ts';
import { useResource } from '../use-resource.ts';
import '../merchant.css';

export function EventsPage() {
  const { client, mode } = useDashboard();
  const [name, setName] = useState<EventName | ''>('');
  const [cursor, setCursor] = useState<Cursor>({});
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => setCursor({}), [mode]);
  const query = { ...PAGE_QUERY, ...(name === '' ? {} : { name }), ...cursor };
  const events = useResource(() => client.listEvents(mode, query), [mode, JSON.stringify(query)]);
  const rows = events.data?.data ?? [];

  return (
    <>
      <PageTitle title="Events">Events</PageTitle>
      <div class="filters">
        <FilterSelect
          id="events-name"
          testId="events-name-filter"
          label="Event"
          all="All events"
          options={EVENT_NAMES}
          value={name}
          onChange={(value) => {
            setName(value);
            setCursor({});
          }}
        />
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
              <th scope="col">JSON</th>
            </tr>
          </thead>
          <tbody>
            {rows.flatMap((event) => [
              <tr
                key={event.id}
                data-testid="event-row"
                data-event-name={event.name}
                // A click anywhere on the row opens its JSON, as the row's button does (its link keeps going to the charge).
                onClick={(click) => {
                  if (!(click.target as Element).closest('a, button')) setOpen(event.id);
                }}
              >
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
                <td>
                  <button
                    type="button"
                    aria-expanded={open === event.id}
                    aria-controls={`json-${event.id}`}
                    aria-label={`${open === event.id ? 'Hide' : 'Show'} the JSON of ${event.id}`}
                    onClick={() => setOpen(open === event.id ? null : event.id)}
                  >
                    {open === event.id ? 'Hide' : 'Show'}
                  </button>
                </td>
              </tr>,
              ...(open === event.id
                ? [
                    <tr key={`${event.id}-json`}>
                      <td colSpan={5}>
                        {/* Focusable so that the keyboard can scroll a long event. */}
                        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe's scrollable-region-focusable) */}
                        <section class="json" id={`json-${event.id}`} aria-label={`JSON of ${event.id}`} tabIndex={0}>
                          <pre data-testid="event-json">{JSON.stringify(event, null, 2)}</pre>
                        </section>
                      </td>
                    </tr>,
                  ]
                : []),
            ])}
          </tbody>
        </table>
      </div>
      {events.data !== undefined && rows.length === 0 && <p>No events yet.</p>}
      <Pager cursor={cursor} hasMore={events.data?.has_more ?? false} ids={rows.map((event) => event.id)} onPage={setCursor} />
    </>
  );
}
