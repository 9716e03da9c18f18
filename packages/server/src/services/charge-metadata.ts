import { type Charge, METADATA_LIMITS, type Metadata, mergeMetadata, PayframeError, type UpdateChargeBody } from '@payframe/contract';
import { chargeMetadataUpdate } from '../storage/repositories/charges.ts';
import { chargeView } from './api-resources.ts';
import { loadCharge } from './charges.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { recordChange } from './events.ts';
import { MAX_ATTEMPTS } from './move-charge.ts';

/**
 * `POST /v2/charges/:id`: merges metadata into the charge's (an empty value deletes its key) and
 * records `charge.updated` with the change, in any state of the charge. An update that changes
 * nothing writes nothing and records no event. The write is conditional on the charge's version, as
 * every move is: a lost race reads again and merges into what won.
 */
export async function updateCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string, input: UpdateChargeBody): Promise<Charge> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { charge, token } = await loadCharge(db, caller, id);
    const current = JSON.parse(charge.metadata) as Metadata;
    const merged = mergeMetadata(current, input.metadata);
    if (Object.keys(merged).length > METADATA_LIMITS.keys) {
      throw new PayframeError('PARAMETER_INVALID', `Invalid parameter metadata: a charge has at most ${METADATA_LIMITS.keys} keys.`, { parameter: 'metadata' });
    }
    if (sameMetadata(current, merged)) return chargeView(charge, token, deps);
    const next = { ...charge, metadata: JSON.stringify(merged), updated_at: caller.now, version: charge.version + 1 };
    const view = chargeView(next, token, deps);
    const event = { ...caller, name: 'charge.updated' as const, at: caller.now, charge: view };
    if (await recordChange(db, deps, chargeMetadataUpdate(next, charge.version), event)) return view;
  }
  throw new PayframeError('PROCESSING_ERROR', 'The charge is being changed by other requests; retry shortly.');
}

function sameMetadata(a: Metadata, b: Metadata): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
