import type { LoggerOptions } from 'pino';

/**
 * Request bodies are never logged, but should one ever be attached to a log line, these paths
 * keep card data and keys out of it. Defence in depth, not the first line.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.body.card.number',
  'req.body.card.cvc',
  'body.card.number',
  'body.card.cvc',
  'card.number',
  'card.cvc',
  '*.card.number',
  '*.card.cvc',
  'err.body',
  'err.validation[*].params',
];

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
