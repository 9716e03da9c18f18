import { randomBytes, randomInt, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Dashboard passwords: scrypt from node:crypto with a 16-byte random salt. The cost parameters
 * are stored with each hash (`N=…,r=…,p=…`), so raising them later leaves old hashes verifiable.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
// N=2^15, r=8 needs 32 MiB; Node's default ceiling is exactly that, so give it room.
const MAX_MEMORY = 64 * 1024 * 1024;

export type PasswordHash = { hash: string; salt: string; params: string };

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...cost, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function formatCost(cost: { N: number; r: number; p: number }): string {
  return `N=${cost.N},r=${cost.r},p=${cost.p}`;
}

function parseCost(params: string): ScryptOptions {
  const values = Object.fromEntries(params.split(',').map((part) => part.split('=') as [string, string]));
  return { N: Number(values.N), r: Number(values.r), p: Number(values.p) };
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return { hash: key.toString('base64'), salt: salt.toString('base64'), params: formatCost(COST) };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(password, Buffer.from(stored.salt, 'base64'), parseCost(stored.params));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<PasswordHash> | undefined;

/**
 * A sign-in with an unknown e-mail still pays for one scrypt at the same cost, against a hash no
 * password matches, so that its answer takes as long as a wrong password's.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(32).toString('base64'));
  await verifyPassword(password, await dummy);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** 20 characters of an unambiguous alphabet: about 115 bits, typed easily from a terminal. */
export function generatePassword(): string {
  return Array.from({ length: 20 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}
