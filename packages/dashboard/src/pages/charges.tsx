import { type ChargeStatus, ChargeStatusSchema } from '@payframe/contract';
import { useEffect, useState } from 'preact/hooks';
import type { ChargesQuery } from '../api/client.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FilterSelect } from '../components/filter-select.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { type Cursor, PAGE_QUERY, Pager } from '../components/pager.tsx';
import { useDashboard } from '../context.ts';
import { dateTime, label, money } from '../format.ts';
import { paths } from '../paths.ts';
import { useResource } from '../use-resource.ts';
import '../merchant.css';

export function ChargesPage() {
  const { client, mode } = useDashboard();
  const [search, setSearch] = useState('');
  // What was searched on the last Enter: the server finds it as an id, txn_reference, e-mail or last 4.
  const [searched, setSearched] = useState('');
  const [status, setStatus] = useState<ChargeStatus | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [cursor, setCursor] = useState<Cursor>({});
  useEffect(() => setCursor({}), [mode]);

  const filter: ChargesQuery = { ...(searched === '' ? {} : { q: searched }), ...(status === '' ? {} : { status }), ...createdRange(from, to) };
  const query: ChargesQuery = { ...PAGE_QUERY, ...filter, ...cursor };
  const charges = useResource(() => client.listCharges(mode, query), [mode, JSON.stringify(query)]);
  const dateInput = (id: string, text: string, value: string, set: (value: string) => void) => (
    <>
      <label for={id}>{text}</label>
      <input
        id={id}
        data-testid={id}
        type="date"
        value={value}
        onChange={(event) => {
          set(event.currentTarget.value);
          setCursor({});
        }}
      />
    </>
  );

  const submitSearch = (event: Event) => {
    event.preventDefault();
    setSearched(search.trim());
    setCursor({});
  };

  const rows = charges.data?.data ?? [];
  return (
    <>
      <PageTitle title="Charges">Charges</PageTitle>
      {/* biome-ignore lint/a11y/useSemanticElements: a form with role=search is the landmark every screen reader announces; the newer <search> element is not yet. */}
      <form class="filters" role="search" onSubmit={submitSearch}>
        <label for="charges-search">Search by charge id, txn_reference, e-mail or last 4 digits</label>
        <input
          id="charges-search"
          data-testid="charges-search"
          type="search"
          maxLength={255}
          value={search}
          onInput={(event) => setSearch(event.currentTarget.value)}
        />
        <button type="submit">Search</button>
        <FilterSelect
          id="charges-status"
          testId="charges-status-filter"
          label="Status"
          all="All statuses"
          options={ChargeStatusSchema.options}
          optionLabel={label}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setCursor({});
          }}
        />
        {dateInput('charges-created-from', 'Created from', from, setFrom)}
        {dateInput('charges-created-to', 'to (inclusive)', to, setTo)}
        <a class="button" data-testid="charges-export" href={client.chargesExportUrl(mode, filter)} download>
          Export CSV
        </a>
      </form>
      <ErrorMessage error={charges.error} />
      <div class="table" aria-busy={charges.loading}>
        <table>
          <caption class="sr-only">{`${mode === 'test' ? 'Test' : 'Live'} charges, newest first`}</caption>
          <thead>
            <tr>
              <th scope="col">Charge</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Reference</th>
              <th scope="col">Description</th>
              <th scope="col">E-mail</th>
              <th scope="col">Card</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((charge) => (
              <tr key={charge.id} data-testid="charge-row" data-charge-id={charge.id}>
                <td>
                  <a href={paths.charge(charge.id)}>{charge.id}</a>
                </td>
                <td data-testid="charge-amount" class="amount">
                  {money(charge.amount, charge.currency)}
                </td>
                <td data-testid="charge-status">
                  <span class={`status status-${charge.status.toLowerCase()}`}>{label(charge.status)}</span>
                </td>
                <td>{charge.txn_reference ?? '—'}</td>
                <td data-testid="charge-description" data-label="Description">
                  {charge.description === '' ? '—' : charge.description}
                </td>
                <td data-testid="charge-email" data-label="E-mail" class="wrap">
                  {charge.email}
                </td>
                <td>•••• {charge.token.card.last4Digits}</td>
                <td data-label="Created">{dateTime(charge.created)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {charges.data !== undefined && rows.length === 0 && <p>No charges match.</p>}
      <Pager cursor={cursor} hasMore={charges.data?.has_more ?? false} ids={rows.map((charge) => charge.id)} onPage={setCursor} />
    </>
  );
}

/**
 * The days picked, in the browser's time zone as the list shows times, as the API's `created`
 * range in epoch seconds: from the start of the first day to the end of the last.
 */
export function createdRange(from: string, to: string): Pick<ChargesQuery, 'created[gte]' | 'created[lt]'> {
  const startOf = (day: string) => {
    const [year, month, date] = day.split('-').map(Number);
    return year && month && date ? Math.floor(new Date(year, month - 1, date).getTime() / 1000) : undefined;
  };
  const gte = from === '' ? undefined : startOf(from);
  const last = to === '' ? undefined : startOf(to);
  const lt = last === undefined ? undefined : Math.floor(new Date(last * 1000 + 36 * 3600 * 1000).setHours(0, 0, 0, 0) / 1000);
  return { ...(gte === undefined ? {} : { 'created[gte]': gte }), ...(lt === undefined ? {} : { 'created[lt]': lt }) };
}
