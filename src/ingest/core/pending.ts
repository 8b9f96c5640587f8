/**
 * @fileoverview An upload waiting in an engine writer's queue, the most uploads a group takes, and
 * the two steps both writers take with a group of them: resolving their prices before anything is written (one that cannot be
 * priced fails alone), and answering each caller with how its upload ended.
 */
import { resolveRates, type RateTable, type RatesOf } from './day-rates.js';
import type { IngestBatch, IngestResult, Outcome } from '../types.js';

/** Most uploads one group (one transaction) takes, on either engine. */
export const MAX_GROUP_UPLOADS = 64;

/** An upload waiting for its group's COMMIT, and how its caller is answered. */
export interface PendingUpload {
  readonly batch: IngestBatch;
  readonly resolve: (result: IngestResult) => void;
  readonly reject: (error: unknown) => void;
}

/** The uploads whose prices resolve, their rates added to `into`; each of the others fails alone, before anything is written. */
export function withPrices<P extends PendingUpload>(group: readonly P[], ratesOf: RatesOf, into: RateTable): P[] {
  const ready: P[] = [];
  for (const p of group) {
    try {
      resolveRates(p.batch.buckets, ratesOf, into);
      ready.push(p);
    } catch (error) {
      p.reject(error);
    }
  }
  return ready;
}

/** Answers the caller with how its upload ended. */
export function settle(p: PendingUpload, outcome: Outcome): void {
  if (outcome.ok) p.resolve(outcome.result);
  else p.reject(outcome.error);
}
