import { createCipheriv, createDecipheriv } from 'node:crypto';
import { pooledRandomBytes } from '../random-bytes.ts';

/** What is kept of a card until its token is used. */
export type CardSecret = { number: string; cvc: string };

const VERSION = 'v1';

/** AES-256-GCM with a fresh 96-bit nonce; `boundTo` (the owning row's id) is bound in as associated data. */
export function seal(key: Buffer, boundTo: string, plain: string): string {
  const iv = pooledRandomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
}

export function unseal(key: Buffer, boundTo: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error('Unreadable sealed secret');
  // A fixed tag length: otherwise a truncated tag would be accepted and forgery made easier.
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
}

export function sealCard(key: Buffer, tokenId: string, secret: CardSecret): string {
  return seal(key, tokenId, JSON.stringify(secret));
}

export function openCard(key: Buffer, tokenId: string, sealed: string): CardSecret {
  return JSON.parse(unseal(key, tokenId, sealed)) as CardSecret;
}
