import { type CreateTokenBody, ERROR_CODES, PayframeError, type Token } from '@payframe/contract';
import { describeCard, isExpired, isValidCardNumber, keptLeadingDigits } from '../domain/card-info.ts';
import { cardFingerprint } from '../security/fingerprint.ts';
import { sealCard } from '../security/vault.ts';
import { findToken, insertToken } from '../storage/repositories/tokens.ts';
import type { TokensTable } from '../storage/schema.ts';
import { tokenView } from './api-resources.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';

/** Exchanges card details for a single-use token; the number and CVC are stored only sealed. */
export async function createToken(db: Db, deps: ServiceDeps, caller: Caller, input: CreateTokenBody, shopperIp: string): Promise<Token> {
  const { card, address, shopper } = input;
  if (!isValidCardNumber(card.number)) {
    throw new PayframeError('INCORRECT_NUMBER', ERROR_CODES.INCORRECT_NUMBER.message, { parameter: 'card.number' });
  }
  if (isExpired(card.exp_month, card.exp_year, caller.now)) {
    throw new PayframeError('EXPIRED_CARD', ERROR_CODES.EXPIRED_CARD.message, { parameter: 'card.exp_year' });
  }
  const info = describeCard(card.number);
  const id = deps.ids.uuid();
  const row: TokensTable = {
    id,
    account_id: caller.accountId,
    mode: caller.mode,
    created_at: caller.now,
    used_at: null,
    ...info,
    bin: keptLeadingDigits(card.number),
    last4: card.number.slice(-4),
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    fingerprint: cardFingerprint(deps.secrets.fingerprintKey, card.number),
    card_secret: sealCard(deps.secrets.cardEncryptionKey, id, { number: card.number, cvc: card.cvc }),
    name: card.name,
    address_line1: address?.address_line1 ?? null,
    address_line2: address?.address_line2 ?? null,
    address_city: address?.city ?? null,
    address_state: address?.state ?? null,
    address_zip: address?.zipcode ?? null,
    address_country: address?.country ?? null,
    shopper_ip: shopperIp,
    shopper_session_id: shopper.session_id,
    shopper_email: shopper.email,
  };
  await insertToken(db, row);
  return tokenView(row);
}

export async function retrieveToken(db: Db, caller: Caller, id: string): Promise<Token> {
  const token = await findToken(db, caller, id);
  if (!token) throw new PayframeError('RESOURCE_MISSING', 'No such token.', { parameter: 'id' });
  return tokenView(token);
}
