// Plain data shared by the loader and the frame. Neither bundles zod: the loader checks against this
// data, and the frame parses with the schemas' description (frame-shapes.ts).

/** Window messages of the handshake, then the messages of the private MessageChannel. */
export const MESSAGE = {
  hello: 'payframe:hello',
  connect: 'payframe:connect',
  options: 'payframe:options',
  focus: 'payframe:focus',
  clear: 'payframe:clear',
  tokenize: 'payframe:tokenize',
  ready: 'payframe:ready',
  resize: 'payframe:resize',
  event: 'payframe:event',
  token: 'payframe:token',
} as const;

/** What merchants may subscribe to with `card.on(…)`: a smaller vocabulary than the protocol's. */
export const CARD_EVENTS = ['ready', 'change', 'focus', 'blur', 'complete', 'error'] as const;
export type CardEvent = (typeof CARD_EVENTS)[number];

export const FIELDS = [
  'card-number',
  'card-expiry',
  'card-cvc',
  'card-name',
  'email',
  'address-line1',
  'address-line2',
  'address-city',
  'address-state',
  'postal-code',
  'address-country',
] as const;
export type Field = (typeof FIELDS)[number];

export const ADDRESS_MODES = ['none', 'postal', 'full'] as const;

export const STYLE_STATES = ['base', 'focus', 'invalid', 'placeholder'] as const;

/** CSS properties a merchant may set on the inputs; anything else could break layout or leak data. */
export const STYLE_PROPERTIES = [
  'color',
  'backgroundColor',
  'borderColor',
  'caretColor',
  'fontFamily',
  'fontSize',
  'fontStyle',
  'fontWeight',
  'fontVariant',
  'letterSpacing',
  'lineHeight',
  'textShadow',
  'textTransform',
] as const;

/** `::placeholder` is styled through custom properties, so it takes a shorter list. */
export const PLACEHOLDER_PROPERTIES = ['color', 'fontStyle', 'fontWeight', 'textTransform'] as const;

/** Colours, lengths, font names and functions like rgb(); no url(), no way out of a declaration. */
export const CSS_VALUE = /^(?![\s\S]*url\s*\()[\w\s#%,.'"()+\-/]{1,100}$/i;

export const FRAME_PATH = '/v2/widget/frame.html';
export const FRAME_TITLE = 'Secure card payment form';
export const FRAME_NAME = 'payframe-card';
