/** The widget's public types, for a merchant's TypeScript (and the browser tests) to name what payframe.js hands out. */
export type { Card } from './loader/card.ts';
export type { CardEvent } from './protocol/names.ts';
export type { CardOptions, TokenRequest } from './protocol/options.ts';
export type { CardEventDetail, TokenResult } from './protocol/to-page.ts';
