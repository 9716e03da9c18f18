import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Mode } from '@payframe/contract';

export type KeyKind = 'secret' | 'publishable';

const PREFIX = { secret: 'sk', publishable: 'pk' } as const;
const KEY_PATTERN = /^(sk|pk)_(test|live)_[A-Za-z0-9_-]{32,}$/;

/** 24 bytes of CSPRNG output as base64url: 32 characters after the prefix. */
export function generateApiKey(kind: KeyKind, mode: Mode): string {
  return `${PREFIX[kind]}_${mode}_${randomBytes(24).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Shows enough to recognise a key in a list, never enough to use it. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
