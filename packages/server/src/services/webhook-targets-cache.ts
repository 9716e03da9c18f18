import type { Mode } from '@payframe/contract';
import { WEBHOOK_SECRET_PREFIX } from '@payframe/contract/webhook-signing';
import { unseal } from '../security/vault.ts';
import type { Db } from '../storage/db.ts';
import { endpointTargets } from '../storage/repositories/webhook-endpoints.ts';

/** Where an endpoint's deliveries go and the secret that signs them; null when it cannot be opened with this master key. */
export type WebhookTarget = { url: string; mode: Mode; secret: string | null };

/** Endpoints never change (only their deletion, which ends their deliveries), so the worker remembers them. */
const MAX_TARGETS = 10_000;

/**
 * The worker's opened endpoints, by id, for its life: an endpoint is read and its secret unsealed
 * once, not for every delivery. Bounded: past MAX_TARGETS it starts over.
 */
export function webhookTargetsCache(secretKey: Buffer) {
  const targets = new Map<string, WebhookTarget>();

  return async function targetsOf(db: Db, endpointIds: Iterable<string>): Promise<Map<string, WebhookTarget>> {
    const missing = [...new Set(endpointIds)].filter((id) => !targets.has(id));
    if (missing.length > 0) {
      if (targets.size + missing.length > MAX_TARGETS) targets.clear();
      for (const row of await endpointTargets(db, missing)) {
        let secret: string | null = null;
        try {
          const opened = unseal(secretKey, row.id, row.secret_sealed);
          if (opened.startsWith(WEBHOOK_SECRET_PREFIX)) secret = opened;
        } catch {
          // Sealed under another master key: its attempts fail, never sent unsigned.
        }
        targets.set(row.id, { url: row.url, mode: row.mode, secret });
      }
    }
    return targets;
  };
}

export type WebhookTargets = ReturnType<typeof webhookTargetsCache>;
