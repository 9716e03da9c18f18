import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What is kept of a card until its token is used. */
export type CardSecret = { number: string; cvc: string };

const VERSION = 'v1';

/** AES-256-GCM with a fresh 96-bit nonce; the token id is bound in as associated data. */
export function sealCard(key: Buffer, tokenId: string, secret: CardSecret): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(tokenId));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
}

export function openCard(key: Buffer, tokenId: string, sealed: string): CardSecret {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error('Unreadable card secret');
  // A fixed tag length: otherwise a truncated tag would be accepted and forgery made easier.
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(tokenId));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as CardSecret;
}
