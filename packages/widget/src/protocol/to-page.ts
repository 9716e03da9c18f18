// Messages the merchant's page receives from the frame. The loader checks where they come from (the
// Payframe origin, its own iframe) and needs no parser; the schemas give both sides their types and
// let the tests hold the frame to them. Neither bundle includes them.
import type { Brand, ErrorBody, Token } from '@payframe/contract';
import * as z from 'zod/mini';
import { type CardEvent, FIELDS, MESSAGE } from './names.ts';

export const HelloMessageSchema = z.object({ type: z.literal(MESSAGE.hello), nonce: z.string() });
export type HelloMessage = z.infer<typeof HelloMessageSchema>;

export const ChangeDetailSchema = z.object({
  complete: z.boolean(),
  empty: z.boolean(),
  brand: z.custom<Brand>((value) => typeof value === 'string'),
  error: z.optional(z.object({ field: z.enum(FIELDS), message: z.string() })),
});
export type ChangeDetail = z.infer<typeof ChangeDetailSchema>;

const ErrorBodyShape = z.custom<ErrorBody>((value) => typeof (value as ErrorBody | null)?.error?.code === 'string');

export const TokenResultSchema = z.union([
  z.object({ token: z.custom<Token>((value) => typeof (value as Token | null)?.id === 'string') }),
  z.object({ error: ErrorBodyShape }),
]);
export type TokenResult = z.infer<typeof TokenResultSchema>;

const FieldDetailSchema = z.object({ field: z.enum(FIELDS) });

const EventMessageSchema = z.discriminatedUnion('name', [
  z.object({ type: z.literal(MESSAGE.event), name: z.literal('change'), detail: ChangeDetailSchema }),
  z.object({ type: z.literal(MESSAGE.event), name: z.literal('focus'), detail: FieldDetailSchema }),
  z.object({ type: z.literal(MESSAGE.event), name: z.literal('blur'), detail: FieldDetailSchema }),
  z.object({ type: z.literal(MESSAGE.event), name: z.literal('complete'), detail: z.object({}) }),
  z.object({ type: z.literal(MESSAGE.event), name: z.literal('error'), detail: z.object({ error: ErrorBodyShape }) }),
]);
export type EventMessage = z.infer<typeof EventMessageSchema>;

export const FrameMessageSchema = z.union([
  z.object({ type: z.literal(MESSAGE.ready) }),
  z.object({ type: z.literal(MESSAGE.resize), height: z.number().check(z.nonnegative()) }),
  EventMessageSchema,
  z.object({ type: z.literal(MESSAGE.token), id: z.number(), result: TokenResultSchema }),
]);
export type FrameMessage = z.infer<typeof FrameMessageSchema>;

/** Merchant-facing payloads by event name; `ready` carries nothing. */
export type CardEventDetail = {
  [E in CardEvent]: E extends 'ready' ? Record<string, never> : Extract<EventMessage, { name: E }>['detail'];
};
