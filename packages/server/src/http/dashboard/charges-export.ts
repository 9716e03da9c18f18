import { Readable } from 'node:stream';
import type { ListChargesQuery } from '@payframe/contract';
import { CHARGES_CSV_HEADER, chargeCsvLine } from '../../services/charges-csv.ts';
import type { Caller, ServiceDeps, Store } from '../../services/context.ts';
import { listDashboardCharges } from '../../services/lists.ts';
import type { ChargeMatch } from '../../storage/repositories/lists.ts';

/** The largest list page: the export walks every page of the filter, one read each. */
const EXPORT_PAGE = 100;

type Filters = Omit<ListChargesQuery, 'limit' | 'starting_after' | 'ending_before'>;

/**
 * Every charge the list's filter finds, newest first, as CSV, streamed page by page: a page is read
 * only when the previous one has been sent, so an export of any size holds one page in memory.
 */
export function chargesExport(store: Store, deps: ServiceDeps, caller: Caller, filters: Filters, matches: ChargeMatch[] | undefined): Readable {
  async function* lines() {
    yield CHARGES_CSV_HEADER;
    let after: string | undefined;
    for (;;) {
      const query: ListChargesQuery = { ...filters, limit: EXPORT_PAGE, ...(after === undefined ? {} : { starting_after: after }) };
      const page = await store.read((db) => listDashboardCharges(db, deps, caller, query, matches));
      yield page.data.map(chargeCsvLine).join('');
      const last = page.data.at(-1);
      if (!page.has_more || last === undefined) return;
      after = last.id;
    }
  }
  return Readable.from(lines());
}
