/** @fileoverview purgeEvents: deletes per-upload audit records older than `days` days (usage is never touched). */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { countIngestEventsBefore, deleteIngestEventsBefore } from '../db/queries/events.js';
import { inTransaction } from '../db/transaction.js';
import { DAY_MS } from '../domain/calendar.js';

export const DEFAULT_RETENTION_DAYS = 30;

export interface PurgeResult {
  success: true;
  dry_run: boolean;
  days: number;
  cutoff: string;
  /** Events deleted, or that would be deleted on a dry run. */
  deleted: number;
}

export async function purgeEvents(
  deps: { db: Db; clock: Clock },
  options: { days: number; dryRun: boolean },
): Promise<PurgeResult> {
  const cutoff = deps.clock.now() - options.days * DAY_MS;
  const deleted = options.dryRun
    ? await countIngestEventsBefore(deps.db.kysely, cutoff)
    : await inTransaction(deps.db, (tx) => deleteIngestEventsBefore(tx, cutoff));
  return {
    success: true,
    dry_run: options.dryRun,
    days: options.days,
    cutoff: new Date(cutoff).toISOString(),
    deleted,
  };
}
