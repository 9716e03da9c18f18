import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { z } from 'zod';

const FROM_ZOD = Symbol('payframe.zodIssue');

/** One zod issue as Fastify hands it to the error handler (`error.validation`). */
export type ValidationIssue = FastifySchemaValidationError & { [FROM_ZOD]?: true };

/** An error Fastify raised because a request's part failed its route's zod schema. */
export function isValidationFailure(error: unknown): error is { validation: ValidationIssue[]; validationContext?: string } {
  const validation = (error as { validation?: unknown } | null)?.validation;
  return Array.isArray(validation) && (validation[0] as ValidationIssue | undefined)?.[FROM_ZOD] === true;
}

/**
 * zod validation for every route, as fastify-type-provider-zod's `validatorCompiler` does it, but
 * with each issue's path written as a JSON pointer (RFC 6901): the provider joins zod's path with
 * `/` as it is, so a metadata key holding one (`order/id`) read as two levels of names.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return {
      error: result.error.issues.map(({ path, code, message, ...params }): ValidationIssue => {
        const instancePath = pointerTo(path);
        return { [FROM_ZOD]: true, keyword: code, instancePath, schemaPath: `#${instancePath}/${code}`, message, params };
      }),
    };
  };

function pointerTo(path: PropertyKey[]): string {
  return path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The names of a JSON pointer made by pointerTo, outermost first. */
export function namesOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}
