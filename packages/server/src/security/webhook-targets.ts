import { type LookupAddress, type LookupAllOptions, lookup } from 'node:dns';
import { isIP } from 'node:net';
import type { Mode } from '@payframe/contract';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go. Live endpoints reach only public addresses, so that a merchant's URL cannot
 * make the server call into its own network (loopback, private, link-local, CGNAT, multicast,
 * unspecified, reserved; IPv4-mapped IPv6 is judged as the IPv4 it carries). The rule is applied
 * when an endpoint is created and again at every delivery, on the addresses the connection uses.
 * Test endpoints may point anywhere, a developer's own machine included.
 */

/** ipaddr.js's names for the ranges, in words; any other non-public range is named as ipaddr.js names it. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique local',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
  reserved: 'a reserved',
  rfc6052: 'a NAT64',
  rfc6145: 'an IPv4-translated',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
};

/** IPv6's global unicast block: nothing outside it is a public address (RFC 4291, IANA's registry). */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** What kind of address this is when it may not receive live webhooks ("a private address"), or null when it is public. */
export function nonPublicKind(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return `${RANGE_WORDS[range] ?? `a non-public (${range})`} address`;
  // ipaddr.js calls every IPv6 address it has no name for unicast, the deprecated IPv4-compatible
  // ::/96 (::127.0.0.1) and the rest of the reserved ::/8 among them.
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST)) return 'an IPv6 address outside global unicast (2000::/3)';
  return null;
}

/** Why this address may not receive live webhooks ("10.0.0.1, a private address"), or null when it is public. */
export function nonPublicReason(address: string): string | null {
  const kind = nonPublicKind(address);
  return kind === null ? null : `${address}, ${kind}`;
}

const LOOKUP_TIMEOUT_MS = 5_000;

/** Resolves a hostname (or takes an IP literal) to every address a connection might use. */
export function resolveAll(hostname: string): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${LOOKUP_TIMEOUT_MS / 1000} s`)), LOOKUP_TIMEOUT_MS);
    lookup(host, { all: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(new Error(error.code ?? 'the lookup failed'));
      else resolve(addresses);
    });
  });
}

/**
 * Why this URL may not be an endpoint of the mode, or null when it may. The answer goes into an
 * API error, which never repeats a parameter's value: it names no host and no address.
 */
export async function refusedTarget(url: URL, mode: Mode): Promise<string | null> {
  if (mode === 'test') return null;
  if (url.protocol !== 'https:') return 'must be an https URL in live mode';
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(url.hostname);
  } catch (error) {
    return `must have a hostname that resolves (${(error as Error).message})`;
  }
  const refused = addresses.map((entry) => nonPublicKind(entry.address)).find((kind) => kind !== null);
  if (!refused) return null;
  const literal = isIP(url.hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
  return `must reach a public address in live mode: ${literal ? 'its host is' : 'its hostname resolves to'} ${refused}`;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for live deliveries' connections: the addresses are checked as the socket resolves
 * them, so a hostname that has come to resolve somewhere private since its creation is refused
 * on the very connection that would have reached it.
 */
export function publicOnlyLookup(hostname: string, options: LookupAllOptions | object, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.map((entry) => nonPublicReason(entry.address)).find((reason) => reason !== null);
    if (refused) {
      return callback(Object.assign(new Error(`refused: ${hostname} resolves to ${refused}`), { code: 'EADDRNOTPUBLIC' }), []);
    }
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    return callback(null, first.address, first.family);
  });
}
