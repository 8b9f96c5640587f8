/**
 * @fileoverview How the SQLite writer thread joins the groups waiting for it into one transaction.
 *
 * The app's thread sends the uploads it has ready on every event-loop turn, without waiting for the
 * group being written (writer-sqlite.ts); those that reach the thread while it writes wait in its
 * port. When it is done it takes all of them at once and writes them as one group: the thread
 * never waits for the app's thread to notice that it is done (which took ~2.5 ms a group under
 * load, the app's thread being busy with a burst of requests: docs/decisions.md, "Ingest on
 * SQLite"), and the groups stay as large as the uploads that arrived meanwhile.
 *
 * Groups join only when they were resolved with the same price data (their rates then agree), none
 * of them is to be written alone (the uploads of a group that failed as a whole, written again one
 * by one), and together they hold at most {@link MAX_GROUP_UPLOADS} uploads. Each group's caller is
 * answered on its own: its uploads' outcomes, or how the joined group ended.
 */
import type { RateTable } from './day-rates.js';
import type { GroupReply, GroupWork } from './sqlite-group-writer.js';
import {
  fromWireWork,
  toWireOutcome,
  uploadsIn,
  type FromThread,
  type ToThread,
  type WireError,
} from './sqlite-thread-wire.js';

/** Most uploads one transaction takes; the app's thread sends groups of at most this many too. */
export const MAX_GROUP_UPLOADS = 64;

/** Groups written as one: each sender's id and how many uploads it sent, in order. */
export interface Joined {
  readonly parts: readonly { readonly id: number; readonly uploads: number }[];
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
  const first = fromWireWork(head.work);
  const parts = [{ id: head.id, uploads: first.batches.length }];
  if (head.alone === true) return { parts, work: first };
  const works = [first];
  let uploads = first.batches.length;
  for (let next = waiting[0]; next !== undefined && 'work' in next; next = waiting[0]) {
    const count = uploadsIn(next.work);
    if (next.alone === true || next.work.fingerprint !== head.work.fingerprint || uploads + count > max) break;
    waiting.shift();
    works.push(fromWireWork(next.work));
    parts.push({ id: next.id, uploads: count });
    uploads += count;
  }
  return { parts, work: works.length === 1 ? first : joinWorks(works) };
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

/** Each sender's answer: its own uploads' outcomes when written, else how the whole group ended. */
export function repliesOf(
  joined: Joined,
  ended: GroupReply | { readonly kind: 'failed'; readonly error: WireError },
): FromThread[] {
  let at = 0;
  return joined.parts.map(({ id, uploads }): FromThread => {
    if (ended.kind !== 'written') return { id, ...ended };
    const outcomes = ended.outcomes.slice(at, at + uploads).map(toWireOutcome);
    at += uploads;
    return { id, kind: 'written', outcomes };
  });
}
