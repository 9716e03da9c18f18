import type { LoggerOptions } from 'pino';

/**
 * Request bodies and headers are never logged, but should one ever be attached to a log line,
 * these paths keep card data, keys, cookies and passwords out of it. Defence in depth: the
 * request serializer below is the first line.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-csrf-token"]',
  'req.body.password',
  'body.password',
  'req.body.card.number',
  'req.body.card.cvc',
  'body.card.number',
  'body.card.cvc',
  'card.number',
  'card.cvc',
  '*.card.number',
  '*.card.cvc',
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'err.body',
  'err.validation[*].params',
];

/** The fields of a Fastify request the serializer reads. */
type LoggedRequest = { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } };

/** Query parameters whose values a request line never shows, should a client put a secret or card data there. */
const SECRET_PARAMETER = /pass|secret|key|token|pares|session|cookie|auth|card|number|cvc|cvv|pan/i;
/**
 * A card number anywhere in a value: 12 to 19 digits, a space, dot or dash between any two, and
 * no digit on either side. A longer run is no card number: a charge id's 33 digits stay visible.
 */
export const CARD_LIKE = /(?<!\d)(?:\d[\s.-]?){11,18}\d(?!\d)/;

/**
 * Each `name=value` of a query string; a value that looks secret or holds a card number is
 * redacted, and a name that holds a card number (`?4242…`, `a[4242…]=1`) takes its whole part with it.
 */
function safeQuery(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      if (CARD_LIKE.test(decoded(name))) return '[redacted]';
      if (equals === -1) return part;
      return SECRET_PARAMETER.test(decoded(name)) || CARD_LIKE.test(decoded(part.slice(equals + 1))) ? `${name}=[redacted]` : part;
    })
    .join('&');
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/**
 * What a request line shows: never its headers (API keys, cookies); a query string only on the
 * API, whose query parameters are list filters, and without the values of any that look secret.
 * Elsewhere the query can carry a credential (the 3-D Secure link's `paRes` is one): it is dropped.
 */
function requestSerializer(request: LoggedRequest) {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  // A card number put where an id goes (`/v2/tokens/4242…`, `tok4242…`) is no id of ours.
  const path = (query === -1 ? url : url.slice(0, query)).replace(/[^/]+/g, (segment) => (CARD_LIKE.test(decoded(segment)) ? '[redacted]' : segment));
  const shown = query === -1 ? path : path.startsWith('/v2/') ? `${path}?${safeQuery(url.slice(query + 1))}` : `${path}?[redacted]`;
  return {
    method: request.method,
    url: shown,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: requestSerializer },
  };
}
