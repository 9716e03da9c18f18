import { REQUEST_LOG_STATUS_CLASSES, type RequestLogStatusClass } from '@payframe/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { FilterSelect } from '../components/filter-select.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { type Cursor, PAGE_QUERY, Pager } from '../components/pager.tsx';
import { useDashboard } from '../context.ts';
import '../insights.css';
import { useResource } from '../use-resource.ts';

/** Epoch milliseconds with seconds, in the browser's time zone: requests a second apart must read apart. */
function requestTime(ms: number): string {
  const locale = typeof navigator === 'undefined' ? 'en' : navigator.language || 'en';
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });
}

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The /v2 requests of the last 7 days in the current mode: what an integration sent, and what it got. */
export function LogsPage() {
  const { client, mode } = useDashboard();
  const [status, setStatus] = useState<RequestLogStatusClass | ''>('');
  const [pathInput, setPathInput] = useState('');
  const [path, setPath] = useState('');
  const [cursor, setCursor] = useState<Cursor>({});
  const [openId, setOpenId] = useState<string | null>(null);
  useEffect(() => {
    setCursor({});
    setOpenId(null);
  }, [mode]);
  const query = { ...PAGE_QUERY, ...(status === '' ? {} : { status }), ...(path === '' ? {} : { path }), ...cursor };
  const entries = useResource(() => client.listRequestLog(mode, query), [mode, JSON.stringify(query)]);
  const rows = entries.data?.data ?? [];

  return (
    <>
      <PageTitle title="Logs">Request log</PageTitle>
      <p class="help">Every API request of the last 7 days in this mode. Card numbers and security codes are never kept.</p>
      <form
        class="filters"
        aria-label="Filter requests"
        onSubmit={(event) => {
          event.preventDefault();
          setPath(pathInput.trim());
          setCursor({});
        }}
      >
        <FilterSelect
          id="logs-status"
          testId="logs-status-filter"
          label="Status"
          all="All statuses"
          options={REQUEST_LOG_STATUS_CLASSES}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setCursor({});
          }}
        />
        <label for="logs-path">Path starts with</label>
        <input
          id="logs-path"
          type="search"
          data-testid="logs-path-filter"
          placeholder="/v2/charges"
          value={pathInput}
          onInput={(event) => setPathInput(event.currentTarget.value)}
        />
        <button type="submit">Filter</button>
      </form>
      <ErrorMessage error={entries.error} />
      <div class="table" aria-busy={entries.loading}>
        <table>
          <caption class="sr-only">{`${mode === 'test' ? 'Test' : 'Live'} API requests, newest first`}</caption>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">Duration</th>
              <th scope="col">Key</th>
              <th scope="col">Idempotency-Key</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((entry) => (
              <tr
                key={entry.id}
                data-testid="log-row"
                data-request-id={entry.id}
                data-status={entry.status}
                class={openId === entry.id ? 'selected' : undefined}
                onClick={() => setOpenId(entry.id)}
              >
                <td>
                  <button type="button" class="link" aria-expanded={openId === entry.id} onClick={() => setOpenId(entry.id)}>
                    <span class="method">{entry.method}</span> <span class="wrap">{entry.path}</span>
                  </button>
                  <br />
                  <small>
                    <code>{entry.id}</code>
                  </small>
                </td>
                <td data-label="Status" class={`http-status http-${String(entry.status)[0]}xx`}>
                  {entry.status}
                </td>
                <td data-label="Time">{requestTime(entry.created)}</td>
                <td data-label="Duration">{entry.duration_ms} ms</td>
                <td data-label="Key">
                  <code>{entry.key_hint ?? '—'}</code>
                </td>
                <td data-label="Idempotency-Key" class="wrap">
                  {entry.idempotency_key === null ? '—' : <code>{entry.idempotency_key}</code>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {entries.data !== undefined && rows.length === 0 && <p>No requests match.</p>}
      <Pager cursor={cursor} hasMore={entries.data?.has_more ?? false} ids={rows.map((entry) => entry.id)} onPage={setCursor} />
      {openId !== null && <LogDetail id={openId} onClose={() => setOpenId(null)} />}
    </>
  );
}

function LogDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { client, mode } = useDashboard();
  const detail = useResource(() => client.getRequestLog(mode, id), [mode, id]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);
  const data = detail.data;
  return (
    <section class="log-detail" data-testid="log-detail" aria-labelledby="log-detail-title">
      <h2 id="log-detail-title" ref={heading} tabIndex={-1}>
        {data ? `${data.method} ${data.path} → ${data.status}` : 'Request'}
      </h2>
      <ErrorMessage error={detail.error} />
      {data && (
        <>
          <dl class="fields">
            <dt>Request-Id</dt>
            <dd>
              <code data-testid="log-detail-id">{data.id}</code>
            </dd>
            <dt>Time</dt>
            <dd>{requestTime(data.created)}</dd>
            <dt>Duration</dt>
            <dd>{data.duration_ms} ms</dd>
            <dt>Key</dt>
            <dd>
              <code>{data.key_hint ?? '—'}</code>
            </dd>
            <dt>Idempotency-Key</dt>
            <dd>
              <code>{data.idempotency_key ?? '—'}</code>
            </dd>
          </dl>
          <h3>Request parameters</h3>
          <pre class="json" data-testid="log-detail-request">
            {json(data.request)}
          </pre>
          <h3>Response body</h3>
          <pre class="json" data-testid="log-detail-response">
            {json(data.response)}
          </pre>
        </>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
