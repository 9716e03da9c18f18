import pg from 'pg';

/**
 * libpq's multi-host connection strings for node-postgres, which takes one host only:
 * `postgres://user@db1:5432,db2:5432/payframe?target_session_attrs=read-write` (docs/operations.md,
 * "A highly available PostgreSQL"). Each new connection goes to the host that last served a
 * suitable session; when that host refuses, or serves a read-only one (a standby, or a demoted
 * primary), the next host is tried.
 */
export type HostList = {
  /** One single-host URL per host, in the order given. */
  urls: string[];
  /** Whether a session must accept writes (`read-write` and `primary`), as libpq checks it. */
  readWrite: boolean;
};

const SESSION_ATTRS = new Set(['any', 'read-write', 'primary']);

/** The hosts of a URL, or null for a plain single-host URL that node-postgres reads as it is. */
export function parseHostList(url: string): HostList | null {
  const match = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/.exec(url);
  if (!match) return null;
  const [, scheme, userinfo, hostPart = '', rest = ''] = match;
  const hosts = hostPart.split(',');
  const [path = '', query = ''] = rest.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  if (hosts.length < 2 && attrs === null) return null;
  if (attrs !== null && !SESSION_ATTRS.has(attrs)) {
    throw new Error(`target_session_attrs=${attrs} is not supported: use read-write (or primary), or any`);
  }
  params.delete('target_session_attrs');
  const search = params.toString();
  if (hosts.some((host) => host === '')) throw new Error('the database URL names an empty host');
  return {
    urls: hosts.map((host) => `${scheme}${userinfo !== undefined ? `${userinfo}@` : ''}${host}${path}${search ? `?${search}` : ''}`),
    readWrite: attrs === 'read-write' || attrs === 'primary',
  };
}

/** Which host new connections go to; shared by every connection of one pool. */
export class HostSelector {
  #current = 0;
  readonly list: HostList;

  constructor(list: HostList) {
    this.list = list;
  }

  get current(): number {
    return this.#current;
  }

  /**
   * Moves on from `index` after it refused or served a read-only session. Compared first: several
   * connections failing on the same host move on once, not once each.
   */
  failed(index: number): void {
    if (this.#current === index) this.#current = (index + 1) % this.list.urls.length;
  }

  get hostCount(): number {
    return this.list.urls.length;
  }
}

/** A connection that remembers which host it went to. */
export type HostClient = pg.Client & { hostIndex: number };

/** The Client class the pool makes connections with: each to the selector's current host. */
export function clientForHosts(selector: HostSelector): typeof pg.Client {
  return class extends pg.Client {
    readonly hostIndex: number;
    constructor(config?: pg.ClientConfig) {
      const hostIndex = selector.current;
      super({ ...config, connectionString: selector.list.urls[hostIndex] });
      this.hostIndex = hostIndex;
    }
  };
}

/** The error a read-only session answers with: an outage to retry (503), like a refused connection. */
function readOnlySession(): Error {
  return Object.assign(new Error('the database host serves only read-only sessions (a standby); trying the next host'), { code: '25006' });
}

/** pg-pool's check of each new connection: with read-write asked for, a read-only session is refused. */
export function verifySession(selector: HostSelector) {
  return (client: pg.PoolClient, done: (error?: Error) => void): void => {
    if (!selector.list.readWrite) {
      done();
      return;
    }
    client.query('show transaction_read_only').then(
      (result) => {
        if ((result.rows[0] as { transaction_read_only?: string } | undefined)?.transaction_read_only === 'off') return done();
        selector.failed((client as unknown as HostClient).hostIndex);
        done(readOnlySession());
      },
      (error: Error) => done(error),
    );
  };
}
