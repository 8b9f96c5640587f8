/**
 * @fileoverview The leaderboard: snapshot refreshes (single flight in this process, and across
 * processes through db/locks.ts) and the reads of a page, `me` and a profile.
 *
 * A refresh ranks the writer-maintained per-user family totals of each period, writes them as a
 * new generation and switches every refreshed period to it in one transaction, so readers see
 * either the old snapshot or the new one. A refresh asked for while one that covers it runs (here
 * or, on PostgreSQL, in another process) waits for it and answers its result.
 *
 * Reads: snapshot rows never change once written, so single rows are cached per generation and
 * whole pages, names joined, per generation and identity revision. Every request reads the
 * identity revision (src/services/public-identities.ts), so a name change or visibility turned
 * off shows on the next read in every process. Which generation is current is cached for
 * {@link CURRENT_TTL_MS} (a refresh in another process shows within that time).
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { holdingLeaderboardRefresh, inTransactionWithoutLeaderboardRefresh } from '../db/locks.js';
import {
  deleteOldGenerations,
  deleteOldRuns,
  insertEntries,
  insertGeneration,
  latestRunId,
  listFamilyTotals,
  listRunsAfter,
  listUserWeeks,
  nextGenerationId,
  switchGenerations,
} from '../db/queries/leaderboard.js';
import {
  findCurrentGeneration,
  findEntry,
  listEntryPage,
  type EntryRow,
  type GenerationRow,
} from '../db/queries/leaderboard-reads.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import { Busy, Forbidden } from '../domain/errors.js';
import { countsOf, PERIODS, periodWindow, rankUsers, type Metric, type Period } from '../domain/leaderboard-ranking.js';
import type {
  LeaderboardProfileResponse,
  LeaderboardResponse,
  RefreshLeaderboardResponse,
} from '../schemas/leaderboard.js';
import { BoundedCache } from './bounded-cache.js';
import { PublicIdentities } from './public-identities.js';
import { publicDisplayName } from './public-profile.js';
import { wireEntry, ZERO, type LeaderboardEntryWire } from './leaderboard-wire.js';

export type RefreshResult = RefreshLeaderboardResponse;

/** Test seams: `onRefreshLocked` runs once a refresh holds the lock, before it computes. */
export interface LeaderboardHooks {
  onRefreshLocked?: () => Promise<void>;
}

/** A public user's figures in the current snapshot of a period (badges and cards). */
export interface PublicStanding {
  displayName: string | null;
  period: Period;
  metric: Metric;
  /** Identifies the snapshot the figures come from (for caching). */
  generation: number;
  fromDay: string;
  toDay: string;
  /** The rank in the metric (null without usage in it) among `ranked` users. */
  rank: number | null;
  ranked: number;
  total: bigint;
  gpt: bigint;
  claude: bigint;
  other: bigint;
}

/** Weeks in a card's strip. */
export const STRIP_WEEKS = 12;

export type { LeaderboardEntryWire };

interface Job {
  periods: ReadonlySet<Period>;
  promise: Promise<RefreshResult>;
}

export const CURRENT_TTL_MS = 1000;
const MAX_CACHED = 20_000;

export class LeaderboardService {
  private readonly jobs: Job[] = [];
  private readonly current = new Map<Period, { gen: GenerationRow; readAt: number }>();
  private readonly pages = new BoundedCache<LeaderboardEntryWire[]>(MAX_CACHED);
  private readonly rows = new BoundedCache<EntryRow | null>(MAX_CACHED * 5);
  private readonly identities: PublicIdentities;
  private readonly strips = new BoundedCache<{ gpt: bigint; claude: bigint; other: bigint }[]>(MAX_CACHED);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly hooks: LeaderboardHooks = {},
  ) {
    this.identities = new PublicIdentities(db);
  }

  /** Refreshes the named periods (all when empty); joins an unfinished refresh that covers them. */
  refresh(periods: readonly Period[] = PERIODS): Promise<RefreshResult> {
    const wanted = periods.length === 0 ? PERIODS : periods;
    for (const p of wanted) this.current.delete(p);
    const joinable = this.jobs.find((job) => wanted.every((p) => job.periods.has(p)));
    if (joinable) return joinable.promise;
    const previous = this.jobs.at(-1)?.promise.catch(() => undefined) ?? Promise.resolve();
    const job: Job = { periods: new Set(wanted), promise: previous.then(() => this.runExclusive(wanted)) };
    this.jobs.push(job);
    const done = () => {
      const index = this.jobs.indexOf(job);
      if (index >= 0) this.jobs.splice(index, 1);
    };
    job.promise.then(done, done);
    return job.promise;
  }

  /**
   * Computes one refresh at a time across processes (db/locks.ts). A process that waited answers
   * the result of a refresh that finished meanwhile and covers what it wanted.
   */
  private async runExclusive(periods: readonly Period[]): Promise<RefreshResult> {
    const db = this.db;
    const before = await latestRunId(db.kysely);
    return holdingLeaderboardRefresh(
      db,
      () => this.clock.now(),
      async () => {
        const finished = await listRunsAfter(db.kysely, before);
        const covering = finished.find((run) => periods.every((p) => run.periods.includes(p)));
        if (covering) return JSON.parse(covering.result) as RefreshResult;
        await this.hooks.onRefreshLocked?.();
        return this.compute(periods);
      },
    );
  }

  /**
   * Runs `fn` in a write transaction while no refresh computes (in any process), so a snapshot
   * being written can never carry rows `fn` deletes (account deletion).
   */
  withoutRefresh<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransactionWithoutLeaderboardRefresh(this.db, () => this.clock.now(), fn);
  }

  private async compute(periods: readonly Period[]): Promise<RefreshResult> {
    const now = this.clock.now();
    const kysely = this.db.kysely;
    let generation = await nextGenerationId(kysely);
    const switches: { period: Period; generation: number }[] = [];
    const results: RefreshResult['results'] = [];
    for (const period of periods) {
      const window = periodWindow(period, now);
      const rows = rankUsers(await listFamilyTotals(kysely, period, { week: window.weekKey, month: window.monthKey }));
      await insertGeneration(kysely, { id: generation, window, generatedAt: now, counts: countsOf(rows) });
      await insertEntries(this.db, generation, rows);
      switches.push({ period, generation });
      results.push({ period, from: window.fromDay, to: window.toDay, rows: rows.length });
      generation += 1;
    }
    const result: RefreshResult = { success: true, generated_at: new Date(now).toISOString(), results };
    const runId = await inTransaction(this.db, (tx) =>
      switchGenerations(tx, switches, { periods, result: JSON.stringify(result), finishedAt: now }),
    );
    await deleteOldRuns(kysely, runId);
    for (const period of periods) {
      this.current.delete(period);
      await deleteOldGenerations(kysely, period);
    }
    return result;
  }

  /** When the oldest current snapshot was generated (epoch ms); undefined while a period has none. */
  async oldestSnapshotAt(): Promise<number | undefined> {
    let oldest: number | undefined;
    for (const period of PERIODS) {
      const gen = await findCurrentGeneration(this.db.kysely, period);
      if (!gen) return undefined;
      oldest = oldest === undefined ? gen.generatedAt : Math.min(oldest, gen.generatedAt);
    }
    return oldest;
  }

  /** The current snapshot of a period; refreshed first when there is none or its window has passed. */
  private async snapshot(period: Period): Promise<GenerationRow> {
    const now = this.clock.now();
    const expected = periodWindow(period, now);
    const cached = this.current.get(period);
    if (cached && now - cached.readAt < CURRENT_TTL_MS && cached.gen.fromDay === expected.fromDay) return cached.gen;
    let gen = await findCurrentGeneration(this.db.kysely, period);
    if (!gen || gen.fromDay !== expected.fromDay) {
      await this.refresh([period]);
      gen = await findCurrentGeneration(this.db.kysely, period);
      if (!gen) throw new Busy('The leaderboard is being prepared; retry shortly.');
    }
    this.current.set(period, { gen, readAt: now });
    return gen;
  }

  /** A page's wire entries, names joined: cached per generation and identity revision. */
  private async pageEntries(
    gen: GenerationRow,
    metric: Metric,
    limit: number,
    offset: number,
    revision: bigint,
  ): Promise<LeaderboardEntryWire[]> {
    const key = `${revision}:${gen.id}:${metric}:${limit}:${offset}`;
    let entries = this.pages.get(key);
    if (entries === undefined) {
      const rows = await listEntryPage(this.db.kysely, gen.id, metric, limit, offset);
      const identities = await this.identities.of(rows.map((r) => r.userId));
      entries = rows.map((r) => wireEntry(r, identities.get(r.userId)));
      this.pages.set(key, entries);
    }
    return entries;
  }

  /** A user's snapshot row, or a zero row with rank null without usage in the metric. */
  private async rowOf(gen: GenerationRow, metric: Metric, userId: string): Promise<EntryRow> {
    const key = `${gen.id}:${metric}:${userId}`;
    let row = this.rows.get(key);
    if (row === undefined) {
      row = (await findEntry(this.db.kysely, gen.id, metric, userId)) ?? null;
      this.rows.set(key, row);
    }
    return row ?? { userId, ...ZERO };
  }

  async page(q: {
    period: Period;
    metric: Metric;
    limit: number;
    offset: number;
    callerId: string | undefined;
  }): Promise<LeaderboardResponse> {
    const gen = await this.snapshot(q.period);
    const revision = await this.identities.currentRevision();
    const entries = await this.pageEntries(gen, q.metric, q.limit, q.offset, revision);
    const mine = q.callerId === undefined ? undefined : await this.rowOf(gen, q.metric, q.callerId);
    const me = mine ? wireEntry(mine, (await this.identities.of([mine.userId])).get(mine.userId)) : null;
    const total = gen.counts[q.metric];
    return {
      period: q.period,
      metric: q.metric,
      from: gen.fromDay,
      to: gen.toDay,
      generated_at: new Date(gen.generatedAt).toISOString(),
      page: Math.floor(q.offset / q.limit) + 1,
      limit: q.limit,
      offset: q.offset,
      total_entries: total,
      total_pages: Math.ceil(total / q.limit),
      entries,
      me,
    };
  }

  /** A user's figures in the period's current snapshot, or undefined unless their profile is public (or they do not exist). */
  async publicStanding(userId: string, period: Period, metric: Metric): Promise<PublicStanding | undefined> {
    await this.identities.currentRevision();
    const identity = (await this.identities.of([userId])).get(userId);
    if (!identity?.isPublic) return undefined;
    const gen = await this.snapshot(period);
    const row = await this.rowOf(gen, metric, userId);
    return {
      displayName: publicDisplayName(identity.displayName),
      period,
      metric,
      generation: gen.id,
      fromDay: gen.fromDay,
      toDay: gen.toDay,
      rank: row.rank,
      ranked: gen.counts[metric],
      total: row.total,
      gpt: row.gpt,
      claude: row.claude,
      other: row.other,
    };
  }

  /**
   * A user's family totals for the last {@link STRIP_WEEKS} ISO weeks, oldest first, from the
   * per-week totals the week snapshot is ranked from; read once per week snapshot and user (so it
   * moves with the snapshots, like every other figure of a card).
   */
  async weeklyStrip(userId: string): Promise<{ gpt: bigint; claude: bigint; other: bigint }[]> {
    const gen = await this.snapshot('week');
    const key = `${gen.id}:${userId}`;
    let strip = this.strips.get(key);
    if (strip === undefined) {
      const current = periodWindow('week', gen.generatedAt).weekKey;
      const rows = await listUserWeeks(this.db.kysely, userId, current - STRIP_WEEKS + 1, current);
      const byWeek = new Map(rows.map((r) => [r.week, r]));
      strip = Array.from(
        { length: STRIP_WEEKS },
        (_, i) => byWeek.get(current - STRIP_WEEKS + 1 + i) ?? { gpt: 0n, claude: 0n, other: 0n },
      );
      this.strips.set(key, strip);
    }
    return strip;
  }

  /** Public users for anyone, the caller's own always, everyone else forbidden. */
  async profile(q: {
    userId: string;
    period: Period;
    callerId: string | undefined;
  }): Promise<LeaderboardProfileResponse> {
    await this.identities.currentRevision();
    const identity = (await this.identities.of([q.userId])).get(q.userId);
    if (q.callerId !== q.userId && !identity?.isPublic)
      throw new Forbidden('This user has not made their profile public.');
    const gen = await this.snapshot(q.period);
    return {
      period: q.period,
      from: gen.fromDay,
      to: gen.toDay,
      generated_at: new Date(gen.generatedAt).toISOString(),
      entry: wireEntry(await this.rowOf(gen, 'all', q.userId), identity),
    };
  }
}
