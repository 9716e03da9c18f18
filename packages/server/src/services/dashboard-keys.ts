import { type ApiKeyList, type ApiKeyRow, type CreatedApiKeys, PayframeError } from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import { type AccountKeyRow, findOwnedKey, listOwnedKeys, revokeOwnedKey } from '../storage/repositories/api-keys.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import { issueKeyPair } from './api-keys.ts';
import type { Db, ServiceDeps } from './context.ts';

/** API keys as the dashboard manages them: per account and mode, times in epoch seconds, never the key itself. */
function keyRow(row: AccountKeyRow): ApiKeyRow {
  return {
    id: row.id,
    kind: row.kind,
    mode: row.mode,
    hint: row.hint,
    created: epochSeconds(row.created_at),
    last_used: row.last_used_at === null ? null : epochSeconds(row.last_used_at),
    revoked: row.revoked_at === null ? null : epochSeconds(row.revoked_at),
  };
}

export async function listOwnerKeys(db: Db, owner: Owner): Promise<ApiKeyList> {
  return { type: 'list', data: (await listOwnedKeys(db, owner)).map(keyRow) };
}

/** Key times are real times: the test clock moves charges, not the audit trail. */
export async function createOwnerKeys(db: Db, deps: ServiceDeps, owner: Owner): Promise<CreatedApiKeys> {
  const pair = await issueKeyPair(db, deps.ids, owner.accountId, owner.mode, deps.clock.now());
  const rows = await Promise.all(pair.ids.map((id) => findOwnedKey(db, owner, id)));
  return { secretKey: pair.secretKey, publishableKey: pair.publishableKey, keys: rows.flatMap((row) => (row ? [keyRow(row)] : [])) };
}

/** Revoking a revoked key answers it as it is: the first revocation's time stays. */
export async function revokeOwnerKey(db: Db, deps: ServiceDeps, owner: Owner, id: string): Promise<ApiKeyRow> {
  await revokeOwnedKey(db, owner, id, deps.clock.now());
  const row = await findOwnedKey(db, owner, id);
  if (!row) throw new PayframeError('RESOURCE_MISSING', 'No such API key.', { parameter: 'id' });
  return keyRow(row);
}
