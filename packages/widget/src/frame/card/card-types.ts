// The card types the frame detects brands with, read from the build's string (card-table.ts).

import { type CardType, decodeCardTypes } from './card-codec.ts';
import { CARD_TABLE } from './card-table.ts';

export type { CardType };

export const CARD_TYPES: CardType[] = decodeCardTypes(CARD_TABLE);
