// Messages the frame receives: the handshake's connect, then the channel's messages. The frame parses
// each one against these schemas (through frame-shapes.ts) before acting on it.
import * as z from 'zod/mini';
import { MESSAGE } from './names.ts';
import { CardOptionsSchema } from './options.ts';

const NonceSchema = z.string().check(z.regex(/^[0-9a-f]{32}$/));

/** What the loader puts in the frame URL's fragment: never sent to a server, unlike a query string. */
export const LaunchParamsSchema = z.object({
  origin: z.string().check(z.regex(/^https?:\/\/[^/?#\s]+$/)),
  nonce: NonceSchema,
});
export type LaunchParams = z.infer<typeof LaunchParamsSchema>;

export const ConnectMessageSchema = z.object({
  type: z.literal(MESSAGE.connect),
  nonce: NonceSchema,
  publishableKey: z.string().check(z.regex(/^pk_(test|live)_[\w-]+$/)),
  options: CardOptionsSchema,
});
export type ConnectMessage = z.infer<typeof ConnectMessageSchema>;

/** On the channel; `request` is parsed on its own so that a bad one still gets an answer with its id. */
export const ParentMessageSchema = z.union([
  z.object({ type: z.literal(MESSAGE.options), options: CardOptionsSchema }),
  z.object({ type: z.literal(MESSAGE.focus) }),
  z.object({ type: z.literal(MESSAGE.clear) }),
  z.object({ type: z.literal(MESSAGE.tokenize), id: z.number(), request: z.unknown() }),
]);
export type ParentMessage = z.infer<typeof ParentMessageSchema>;
