import type { Mode } from '@payframe/contract';
import { WEBHOOK_SECRET_PREFIX } from '@payframe/contract/webhook-signing';
import { unseal } from '../security/vault.ts';
import type { Db } from '../storage/db.ts';
import { endpointTargets } from '../storage/repositories/webhook-endpoints.ts';

/** Where an endpoint's deliveries go and the secret that signs them; null when it cannot be opened with this master key. */
export type WebhookTarget = { url: string; mode: Mode; secret: string | null };

/** A secret never changes, so the worker remembers it opened; an endpoint's URL can change, so it is read for every pass. */
const MAX_SECRETS = 10_000;

/**
 * The claimed endpoints' targets: their URL and mode as they are now (one read for the whole pass),
 * each secret unsealed once for the worker's life. Bounded: past MAX_SECRETS it starts over.
 */
export function webhookTargetsCache(secretKey: Buffer) {
  const secrets = new Map<string, string | null>();

  return async function targetsOf(db: Db, endpointIds: Iterable<string>): Promise<Map<string, WebhookTarget>> {
    const ids = [...new Set(endpointIds)];
    const targets = new Map<string, WebhookTarget>();
    if (ids.length === 0) return targets;
    const rows = await endpointTargets(db, ids);
    if (secrets.size + rows.length > MAX_SECRETS) secrets.clear();
    for (const row of rows) {
      if (!secrets.has(row.id)) secrets.set(row.id, openSecret(secretKey, row.id, row.secret_sealed));
      targets.set(row.id, { url: row.url, mode: row.mode, secret: secrets.get(row.id) ?? null });
    }
    return targets;
  };
}

function openSecret(secretKey: Buffer, id: string, sealed: string): string | null {
  try {
    const opened = unseal(secretKey, id, sealed);
    return opened.startsWith(WEBHOOK_SECRET_PREFIX) ? opened : null;
  } catch {
    // Sealed under another master key: its attempts fail, never sent unsigned.
    return null;
  }
}

export type WebhookTargets = ReturnType<typeof webhookTargetsCache>;
