import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE, prepareDataDirectory } from '../storage/file-modes.ts';

/** Keys derived from one master secret, each for a single purpose. */
export type ServerSecrets = {
  cardEncryptionKey: Buffer;
  fingerprintKey: Buffer;
  threeDSKey: Buffer;
  /** Seals webhook endpoints' signing secrets, which must stay readable to sign deliveries. */
  webhookSecretKey: Buffer;
  /** Keys the fingerprint that matches a retry to its request: the request may hold a card number and CVC. */
  idempotencyFingerprintKey: Buffer;
  /** Seals stored responses for replay: they hold shoppers' details and webhook signing secrets. */
  idempotencyResponseKey: Buffer;
};

export type MasterKeySource = { masterKey?: string | undefined; keyFile: string };

/**
 * The master key comes from configuration (base64, 32 bytes) or from a key file made with
 * mode 0600 on first start: several instances share a database only if they share this key.
 */
export function loadServerSecrets(source: MasterKeySource): ServerSecrets {
  const master = source.masterKey ? decodeMasterKey(source.masterKey) : readOrCreateKeyFile(source.keyFile);
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `payframe:${purpose}`, 32));
  return {
    cardEncryptionKey: derive('card-encryption'),
    fingerprintKey: derive('card-fingerprint'),
    threeDSKey: derive('threeds-pares'),
    webhookSecretKey: derive('webhook-secrets'),
    idempotencyFingerprintKey: derive('idempotency-fingerprint'),
    idempotencyResponseKey: derive('idempotency-responses'),
  };
}

function decodeMasterKey(encoded: string): Buffer {
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== 32) throw new Error('PAYFRAME_MASTER_KEY must be 32 bytes, base64-encoded');
  return key;
}

function readOrCreateKeyFile(path: string): Buffer {
  try {
    const key = decodeMasterKey(readFileSync(path, 'utf8').trim());
    chmodSync(path, PRIVATE_FILE_MODE);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  prepareDataDirectory(dirname(path));
  // Written whole under a private name, then linked into place: a process starting at the same
  // moment sees either no key file or a complete one, and exactly one key wins.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${randomBytes(32).toString('base64')}\n`, { mode: PRIVATE_FILE_MODE });
  try {
    linkSync(partial, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(partial);
  }
  return decodeMasterKey(readFileSync(path, 'utf8').trim());
}
