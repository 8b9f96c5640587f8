/**
 * @fileoverview How the SQLite writer thread joins the groups waiting for it into one transaction.
 *
 * The app's thread sends the uploads it has ready on every event-loop turn, without waiting for the
 * group being written (sqlite/writer.ts); those that reach the thread while it writes wait in its
 * port. When it is done it takes all of them at once and writes them as one group: the thread
 * never waits for the app's thread to notice that it is done (which took ~2.5 ms a group under
 * load, the app's thread being busy with a burst of requests: docs/decisions.md, "Ingest on
 * SQLite"), and the groups stay as large as the uploads that arrived meanwhile.
 *
 * Groups join only when they were resolved with the same price data (their rates then agree) and
 * together hold at most {@link MAX_GROUP_UPLOADS} uploads. Each sender is answered as if its group
 * had been written alone: with its own uploads' outcomes, or how the joined group ended; and a
 * joined group that fails as a whole (nothing of it stored) is written again group by group, so a
 * group is failed only by its own uploads.
 */
import type { RateTable } from '../../core/day-rates.js';
import { MAX_GROUP_UPLOADS } from '../../core/pending.js';
import type { GroupReply, GroupWork, GroupWrite } from '../group-write.js';
import { fromWireWork, toWireError, toWireOutcome, uploadsIn, type FromThread, type ToThread } from './wire.js';

/** A group as its sender sent it. */
interface Part {
  readonly id: number;
  readonly work: GroupWork;
}

/** Groups written as one: each as its sender sent it, in order, and all of them joined. */
export interface Joined {
  readonly parts: readonly Part[];
  readonly work: GroupWork;
}

/**
 * Takes from the head of `waiting` the groups to write as one, or answers undefined when the head
 * is not a group (nothing waits, or the word to close, which comes after every group sent before it).
 */
export function takeJoined(waiting: ToThread[], max = MAX_GROUP_UPLOADS): Joined | undefined {
  const head = waiting[0];
  if (head === undefined || !('work' in head)) return undefined;
  waiting.shift();
  const parts: Part[] = [{ id: head.id, work: fromWireWork(head.work) }];
  let uploads = uploadsIn(head.work);
  for (let next = waiting[0]; next !== undefined && 'work' in next; next = waiting[0]) {
    const count = uploadsIn(next.work);
    if (next.work.fingerprint !== head.work.fingerprint || uploads + count > max) break;
    waiting.shift();
    parts.push({ id: next.id, work: fromWireWork(next.work) });
    uploads += count;
  }
  return { parts, work: parts.length === 1 ? (parts[0] as Part).work : joinWorks(parts.map((p) => p.work)) };
}

/** One group of the works' uploads, in order, with every rate any of them resolved (the same data's). */
function joinWorks(works: readonly GroupWork[]): GroupWork {
  const rates: RateTable = new Map();
  for (const work of works) {
    for (const [model, byDay] of work.rates) {
      const into = rates.get(model);
      if (into === undefined) rates.set(model, new Map(byDay));
      else for (const [day, dayRates] of byDay) into.set(day, dayRates);
    }
  }
  return { batches: works.flatMap((w) => w.batches), fingerprint: works[0]?.fingerprint ?? null, rates };
}

/** Writes the joined groups and answers each sender (see the file overview). */
export function writeJoined(joined: Joined, write: GroupWrite): FromThread[] {
  let ended: GroupReply;
  try {
    ended = write(joined.work);
  } catch (error) {
    if (joined.parts.length > 1)
      return joined.parts.flatMap((part) => writeJoined({ parts: [part], work: part.work }, write));
    return [{ id: (joined.parts[0] as Part).id, kind: 'failed', error: toWireError(error) }];
  }
  let at = 0;
  return joined.parts.map(({ id, work }): FromThread => {
    if (ended.kind !== 'written') return { id, ...ended };
    const uploads = work.batches.length;
    const outcomes = ended.outcomes.slice(at, at + uploads).map(toWireOutcome);
    at += uploads;
    return { id, kind: 'written', outcomes };
  });
}
