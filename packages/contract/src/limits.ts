/**
 * The longest value each text field of a token request takes, in characters. Plain data: the schemas
 * enforce it and the widget frame checks it as the shopper types, without zod.
 */
export const FIELD_LIMITS = {
  cardName: 100,
  addressLine: 200,
  city: 100,
  state: 100,
  zipcode: 20,
  sessionId: 255,
  /** RFC 5321's limit on a forward path. */
  email: 254,
} as const;
