import { NoParametersSchema } from '@payframe/contract';
import type { RouteOptions } from 'fastify';

/**
 * Every /v2 operation refuses a parameter name it does not define (400 PARAMETER_UNKNOWN). The
 * contract's request schemas are strict objects; an operation that declares no query (a retrieve)
 * or no body (a cancel, a delete) gets the schema of no parameters here, once for every route, so
 * that `GET /v2/charges/:id?expand=x` or a cancel with `amount=5` is refused, not silently ignored.
 * The 405 routes (hidden) answer before any parameter is read, and keep no schema.
 */
export function refuseUndeclaredParameters(route: RouteOptions): void {
  const schema = route.schema;
  if (!schema || schema.hide) return;
  schema.querystring ??= NoParametersSchema;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // A DELETE's body is read like a POST's (a form or JSON), so it too is refused rather than ignored.
  if (methods.includes('POST') || methods.includes('DELETE')) schema.body ??= NoParametersSchema;
}
