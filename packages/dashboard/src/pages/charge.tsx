import type { EventList, Mode } from '@payframe/contract';
import type { DashboardClient } from '../api/client.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { useDashboard } from '../context.ts';
import { money } from '../format.ts';
import { paths } from '../paths.ts';
import { useResource } from '../use-resource.ts';
import { ChargeActions } from './charge-actions.tsx';
import { ChargeFields } from './charge-fields.tsx';
import { ChargeTimeline } from './charge-timeline.tsx';
import '../merchant.css';

/** The largest list page; a charge has a handful of events, or one per partial refund, which have no cap. */
const EVENTS_PAGE = 100;

/** Every event of the charge, newest first, page after page. */
async function eventsOfCharge(client: DashboardClient, mode: Mode, id: string): Promise<EventList> {
  let page = await client.listEvents(mode, { charge: id, limit: EVENTS_PAGE });
  const data = [...page.data];
  while (page.has_more && page.data.length > 0) {
    page = await client.listEvents(mode, { charge: id, limit: EVENTS_PAGE, starting_after: data[data.length - 1]!.id });
    data.push(...page.data);
  }
  return { ...page, data, has_more: false };
}

export function ChargePage({ id }: { id: string }) {
  const { client, mode } = useDashboard();
  const charge = useResource(() => client.getCharge(mode, id), [mode, id]);
  const events = useResource(() => eventsOfCharge(client, mode, id), [mode, id]);
  const reload = () => {
    charge.reload();
    events.reload();
  };

  return (
    <>
      <p class="back">
        <a href={paths.charges}>← All charges</a>
      </p>
      <PageTitle title={`Charge ${id}`}>
        Charge <span class="wrap">{id}</span>
        {charge.data !== undefined && <span class="subtitle"> · {money(charge.data.amount, charge.data.currency)}</span>}
      </PageTitle>
      <ErrorMessage error={charge.error} />
      {charge.data !== undefined && (
        <>
          <ChargeFields charge={charge.data} />
          <ChargeActions charge={charge.data} onChanged={reload} />
          <section aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            <ErrorMessage error={events.error} />
            {events.data !== undefined && <ChargeTimeline events={events.data.data} />}
          </section>
        </>
      )}
    </>
  );
}
