import type { Migration } from 'kysely';
import * as initial from './001-initial.ts';
import * as rateLimits from './002-rate-limits.ts';
import * as idempotencyKeyKind from './003-idempotency-key-kind.ts';
import * as backgroundJobs from './004-background-jobs.ts';
import * as eventsWebhooks from './005-events-webhooks.ts';
import * as eventCommitOrder from './006-event-commit-order.ts';
import * as threeDSTransStatus from './007-threeds-trans-status.ts';
import * as dashboard from './008-dashboard.ts';
import * as keyGeneration from './009-key-generation.ts';
import * as sqliteLeanIndexes from './010-sqlite-lean-indexes.ts';
import * as sqlitePartialTxnReference from './011-sqlite-partial-txn-reference.ts';
import * as eventListsTieById from './012-event-lists-tie-by-id.ts';
import * as webhookDuePending from './013-webhook-due-pending.ts';
import * as threeDSReturns from './014-threeds-returns.ts';
import * as sealedIdempotencyRecords from './015-sealed-idempotency-records.ts';
import * as webhookLeasesInFlight from './016-webhook-leases-in-flight.ts';
import * as captureAmountMetadata from './017-capture-amount-metadata.ts';
import * as overviewAggregates from './018-overview-aggregates.ts';
import * as requestLog from './019-request-log.ts';
import * as webhookEndpointDisabled from './020-webhook-endpoint-disabled.ts';
import * as webhookDuePerEndpoint from './021-webhook-due-per-endpoint.ts';
import * as tokensSealedCreatedAt from './022-tokens-sealed-created-at.ts';
import * as requestLogBatches from './023-request-log-batches.ts';

/** Every migration, in order; bundled in code so the CLI needs no migration folder at run time. */
export const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-rate-limits': rateLimits,
  '003-idempotency-key-kind': idempotencyKeyKind,
  '004-background-jobs': backgroundJobs,
  '005-events-webhooks': eventsWebhooks,
  '006-event-commit-order': eventCommitOrder,
  '007-threeds-trans-status': threeDSTransStatus,
  '008-dashboard': dashboard,
  '009-key-generation': keyGeneration,
  '010-sqlite-lean-indexes': sqliteLeanIndexes,
  '011-sqlite-partial-txn-reference': sqlitePartialTxnReference,
  '012-event-lists-tie-by-id': eventListsTieById,
  '013-webhook-due-pending': webhookDuePending,
  '014-threeds-returns': threeDSReturns,
  '015-sealed-idempotency-records': sealedIdempotencyRecords,
  '016-webhook-leases-in-flight': webhookLeasesInFlight,
  '017-capture-amount-metadata': captureAmountMetadata,
  '018-overview-aggregates': overviewAggregates,
  '019-request-log': requestLog,
  '020-webhook-endpoint-disabled': webhookEndpointDisabled,
  '021-webhook-due-per-endpoint': webhookDuePerEndpoint,
  '022-tokens-sealed-created-at': tokensSealedCreatedAt,
  '023-request-log-batches': requestLogBatches,
};
