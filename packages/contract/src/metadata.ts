import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_ERROR } from './fields.ts';

/** What a merchant may attach to a charge or refund (an order id, a channel): plain data, so the dashboard and docs read it too. */
export const METADATA_LIMITS = { keys: 20, keyLength: 40, valueLength: 500 } as const;

const KEY_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;
const KEY_ERROR = `keys are 1 to ${METADATA_LIMITS.keyLength} characters of A-Z, a-z, 0-9, _, . and -`;
const VALUE_ERROR = `must be a string of at most ${METADATA_LIMITS.valueLength} characters`;

const MetadataValueSchema = z
  .string({ error: VALUE_ERROR })
  .max(METADATA_LIMITS.valueLength, { error: VALUE_ERROR })
  .refine(isStorableText, STORABLE_TEXT_ERROR);

/**
 * `metadata[key]=value` as sent: at most 20 keys. A bad key is refused on `metadata.<key>`, too many
 * on `metadata`. An empty value is kept here: on an update it deletes its key, on a creation it is
 * simply not stored. A form body's keys made only of digits are keys too (the server's form parser
 * reads `metadata[0]` as the key `0`, not a list index); `metadata[]=x` is a list, refused.
 */
export const MetadataInputSchema = z
  .record(z.string().regex(KEY_PATTERN), MetadataValueSchema, {
    error: (issue) => (issue.code === 'invalid_key' ? KEY_ERROR : 'must be key-value pairs: metadata[key]=value'),
  })
  .refine((metadata) => Object.keys(metadata).length <= METADATA_LIMITS.keys, { error: `must have at most ${METADATA_LIMITS.keys} keys` })
  .meta({ maxProperties: METADATA_LIMITS.keys });
export type MetadataInput = z.infer<typeof MetadataInputSchema>;

/** As answered on charges, refunds and in events: `{}` when none. */
export const MetadataSchema = z.record(z.string(), z.string()).meta({ id: 'Metadata', description: 'Key-value pairs the merchant attached; {} when none.' });
export type Metadata = z.infer<typeof MetadataSchema>;

/** `update` merged into `current`: an empty value deletes its key. */
export function mergeMetadata(current: Metadata, update: MetadataInput): Metadata {
  const merged: Metadata = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** What a creation stores: the pairs with a value (an empty one has nothing to delete yet). */
export function metadataToStore(input: MetadataInput | undefined): Metadata {
  return mergeMetadata({}, input ?? {});
}
