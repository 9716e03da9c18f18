import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { useDashboard } from '../context.ts';
import { money } from '../format.ts';
import { paths } from '../paths.ts';
import { useResource } from '../use-resource.ts';
import { ChargeActions } from './charge-actions.tsx';
import { ChargeFields } from './charge-fields.tsx';
import { ChargeTimeline } from './charge-timeline.tsx';

/** A charge's events fit one list page: a handful of changes each. */
const TIMELINE_LIMIT = 100;

export function ChargePage({ id }: { id: string }) {
  const { client, mode } = useDashboard();
  const charge = useResource(() => client.getCharge(mode, id), [mode, id]);
  const events = useResource(() => client.listEvents(mode, { charge: id, limit: TIMELINE_LIMIT }), [mode, id]);
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
