import { describe, expect, it } from 'vitest';
import { HostSelector, parseHostList } from './postgres-hosts.ts';

describe('parseHostList', () => {
  it('leaves a plain single-host URL to node-postgres', () => {
    expect(parseHostList('postgres://u:p@db:5432/payframe?sslmode=disable')).toBeNull();
  });

  it('splits a multi-host URL into one URL per host, keeping credentials, database and parameters', () => {
    expect(parseHostList('postgres://u:p%40ss@db1:5433,db2:5434,[::1]:5435/payframe?sslmode=disable&target_session_attrs=read-write')).toEqual({
      urls: [
        'postgres://u:p%40ss@db1:5433/payframe?sslmode=disable',
        'postgres://u:p%40ss@db2:5434/payframe?sslmode=disable',
        'postgres://u:p%40ss@[::1]:5435/payframe?sslmode=disable',
      ],
      readWrite: true,
    });
  });

  it('takes target_session_attrs on a single host, and any session without it', () => {
    expect(parseHostList('postgresql://db/payframe?target_session_attrs=primary')).toEqual({ urls: ['postgresql://db/payframe'], readWrite: true });
    expect(parseHostList('postgres://a:1,b:2/x')).toEqual({ urls: ['postgres://a:1/x', 'postgres://b:2/x'], readWrite: false });
  });

  it('refuses session attributes it cannot honour, and empty hosts', () => {
    expect(() => parseHostList('postgres://a,b/x?target_session_attrs=standby')).toThrow(/not supported/);
    expect(() => parseHostList('postgres://a,,b/x')).toThrow(/empty host/);
  });
});

describe('HostSelector', () => {
  it('moves on once per failed host, however many connections saw it fail', () => {
    const selector = new HostSelector({ urls: ['a', 'b', 'c'], readWrite: true });
    selector.failed(0);
    selector.failed(0);
    expect(selector.current).toBe(1);
    selector.failed(1);
    selector.failed(2);
    expect(selector.current).toBe(0);
  });
});
