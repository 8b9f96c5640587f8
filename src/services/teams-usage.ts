/**
 * @fileoverview A team's usage and leaderboard (docs/teams.md). Usage is its members' usage, read
 * from the same read models as a user's analytics and costed the same way: a team's cost is the
 * sum of its members' own costs (stored per member, UTC day, source and model, and summed per team
 * row in the team-side model; the partial UTC days at the range's edges priced per member), so the
 * member rows add up to the total exactly.
 * Day rows are DST-true local days: the team's counts of a local day priced per (source, model,
 * UTC day) within it. Counts stay bigint until the wire; money is micro-dollars.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import type { TeamRole } from '../db/schema.js';
import { findTeamRole, listMembers, type TeamMember } from '../db/queries/teams.js';
import { listTeamLocalDayPieces, type LocalDayPiece } from '../db/queries/team-day-pieces.js';
import {
  listTeamFamilyTotals,
  listTeamProjects,
  listTeamWindowUsage,
  type ProjectSums,
  type TeamWindowUsage,
} from '../db/queries/teams-usage.js';
import { DAY_MS, epochDayOf, formatEpochDay } from '../domain/calendar.js';
import { Forbidden, invalidField, NotFound } from '../domain/errors.js';
import { periodWindow, rankUsers, type RankedRow } from '../domain/leaderboard-ranking.js';
import { resolveDateRange, type ResolvedDateRange } from '../domain/ranges.js';
import { addCounts, zeroCounts, type TokenCounts } from '../domain/token-counts.js';
import type { UsageRow } from '../domain/usage-row.js';
import { offsetTimeline, resolveZone } from '../domain/zones.js';
import { createCostAccumulator, totalsWithCost, type PriceService } from '../pricing/index.js';
import type {
  TeamLeaderboardQuery,
  TeamLeaderboardResponse,
  TeamUsageQuery,
  TeamUsageResponse,
  TeamUsageRow,
} from '../schemas/teams.js';
import { costsWire } from './leaderboard-wire.js';
import type { PriceSource } from '../pricing/index.js';
import type { TeamService } from './teams.js';

const NO_COSTS = { totalCost: 0n, gptCost: 0n, claudeCost: 0n, otherCost: 0n };

/** Project rows answered at most. */
const PROJECT_ROWS = 100;
const MAX_PRICED_ATTEMPTS = 5;

interface Group {
  label?: string;
  counts: TokenCounts;
  micros: bigint;
  edges: Map<string, UsageRow[]>;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const memberLabel = (m: TeamMember): string => m.displayName ?? m.email ?? m.userId;

/** Sums a window's usage into groups by `keyOf` (member, source, raw model): counts, stored costs and per-member edge rows. */
function groupUsage(
  usage: TeamWindowUsage,
  keyOf: (userId: string, source: string, model: string) => { key: string; label?: string },
): Map<string, Group> {
  const groups = new Map<string, Group>();
  const groupOf = (userId: string, source: string, model: string): Group => {
    const { key, label } = keyOf(userId, source, model);
    let g = groups.get(key);
    if (g === undefined)
      groups.set(
        key,
        (g = { ...(label !== undefined ? { label } : {}), counts: zeroCounts(), micros: 0n, edges: new Map() }),
      );
    return g;
  };
  for (const p of usage.priced) {
    const g = groupOf(p.userId, p.source, p.model);
    addCounts(g.counts, p.counts);
    g.micros += p.micros;
  }
  for (const e of usage.edges) {
    const g = groupOf(e.userId, e.source, e.model);
    addCounts(g.counts, e);
    const list = g.edges.get(e.userId);
    if (list === undefined) g.edges.set(e.userId, [e]);
    else list.push(e);
  }
  return groups;
}

/** A group's cost: its stored costs plus each member's edge rows priced on their own. */
function groupMicros(g: Group, prices: PriceService): bigint {
  let micros = g.micros;
  for (const rows of g.edges.values()) {
    const acc = createCostAccumulator(prices);
    acc.addAll(rows);
    micros += acc.totalMicros();
  }
  return micros;
}

/** The window's totals: every member's usage, each member's edges priced on their own. */
function totalOf(usage: TeamWindowUsage, prices: PriceService): TeamUsageResponse['totals'] {
  const all = groupUsage(usage, () => ({ key: '' })).get('');
  return totalsWithCost(all?.counts ?? zeroCounts(), all ? groupMicros(all, prices) : 0n);
}

/** Whether a row of `source` and raw `model` passes the request's filters. */
type Keep = (row: { readonly source: string; readonly model: string }) => boolean;

function filterOf(q: TeamUsageQuery, prices: PriceService): Keep {
  if (q.source === undefined && q.model === undefined) return () => true;
  const models = new Map<string, boolean>();
  return (row) => {
    if (q.source !== undefined && row.source !== q.source) return false;
    if (q.model === undefined) return true;
    let ok = models.get(row.model);
    if (ok === undefined) models.set(row.model, (ok = prices.matchesModelFilter(row.model, q.model)));
    return ok;
  };
}

const byBillable = (a: TeamUsageRow, b: TeamUsageRow): number => {
  const x = BigInt(a.totals.billable_total_tokens);
  const y = BigInt(b.totals.billable_total_tokens);
  return x === y ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : x > y ? -1 : 1;
};

/** What a group reads besides the window's usage. */
interface OwnRead {
  pieces?: LocalDayPiece[][];
  projects?: ProjectSums[];
  members?: TeamMember[];
}

function rowsOf(
  group: NonNullable<TeamUsageQuery['group_by']>,
  range: ResolvedDateRange,
  usage: TeamWindowUsage,
  prices: PriceService,
  own: OwnRead,
  keep: Keep,
): { rows: TeamUsageRow[]; totals?: TeamUsageResponse['totals'] } {
  if (group === 'project') {
    const rows = (own.projects ?? []).map((p) => {
      const { total_cost_usd: _cost, ...counts } = totalsWithCost(p.counts, 0n);
      return { key: p.projectKey, ...(p.projectRef ? { label: p.projectRef } : {}), totals: counts };
    });
    return { rows };
  }
  if (group === 'day') return { rows: dayRows(own.pieces ?? [], range, prices, keep) };
  // Member, model and source groups partition the (member, source, model) usage: their costs add up to the total.
  const identities = new Map<string, { key: string; label: string }>();
  const groups = groupUsage(usage, (userId, source, model) => {
    if (group === 'member') return { key: userId };
    if (group === 'source') return { key: source };
    let id = identities.get(model);
    if (id === undefined) {
      const found = prices.identify(model);
      identities.set(model, (id = { key: found.model_id, label: found.model }));
    }
    return id;
  });
  const all = zeroCounts();
  let allMicros = 0n;
  const priced = new Map<string, { group: Group; micros: bigint }>();
  for (const [key, g] of groups) {
    const micros = groupMicros(g, prices);
    priced.set(key, { group: g, micros });
    addCounts(all, g.counts);
    allMicros += micros;
  }
  const wire = (key: string, label: string | undefined, p: { group: Group; micros: bigint } | undefined) => ({
    key,
    ...(label !== undefined ? { label } : {}),
    totals: totalsWithCost(p?.group.counts ?? zeroCounts(), p?.micros ?? 0n),
  });
  const rows =
    group === 'member'
      ? (own.members ?? []).map((m) => ({
          ...wire(m.userId, memberLabel(m), priced.get(m.userId)),
          last_upload_at: iso(m.lastSyncAt),
        }))
      : [...priced].map(([key, p]) => wire(key, p.group.label, p));
  return { rows: rows.sort(byBillable), totals: totalsWithCost(all, allMicros) };
}

/** One row per local day of the range (zero-filled), each priced per (source, model, UTC day) within it. */
function dayRows(
  pieces: LocalDayPiece[][],
  range: ResolvedDateRange,
  prices: PriceService,
  keep: Keep,
): TeamUsageRow[] {
  const first = epochDayOf(range.from);
  const days = Array.from({ length: range.days }, () => ({
    counts: zeroCounts(),
    acc: createCostAccumulator(prices),
  }));
  for (const piece of pieces.flat()) {
    const day = days[piece.localDay - first];
    if (day === undefined || !keep(piece)) continue;
    addCounts(day.counts, piece.counts);
    day.acc.add({ hourStart: piece.utcDay * DAY_MS, source: piece.source, model: piece.model, ...piece.counts });
  }
  return days.map((d, i) => ({
    key: formatEpochDay(first + i),
    totals: totalsWithCost(d.counts, d.acc.totalMicros()),
  }));
}

export class TeamUsageService {
  constructor(private readonly deps: { db: Db; clock: Clock; prices: PriceSource<PriceService>; teams: TeamService }) {}

  async usage(userId: string, q: TeamUsageQuery): Promise<TeamUsageResponse> {
    const { db, teams } = this.deps;
    const memberId = q.user_id ?? null;
    const [role, memberRole] = await Promise.all([
      teams.require(q.team_id, userId, 'member'),
      memberId === null ? null : findTeamRole(db.kysely, q.team_id, memberId),
    ]);
    const group = q.group_by ?? 'day';
    if ((group === 'member' || memberId !== null) && role === 'member')
      throw new Forbidden("Each member's usage is for the team's owners and admins.");
    if (group === 'project' && (q.source !== undefined || q.model !== undefined))
      throw invalidField(
        { in: 'querystring', field: q.source !== undefined ? 'source' : 'model' },
        'Project rows are all-time and not split by source or model.',
      );
    if (memberId !== null && memberRole === null) throw new NotFound('No member with this id in the team.');
    const zone = resolveZone({ tz: q.tz, tz_offset_minutes: q.tz_offset_minutes });
    const range = resolveDateRange(q, zone, this.deps.clock.now());
    // The group's own read does not depend on the prices: on PostgreSQL it runs beside the window's.
    const own: Promise<OwnRead> =
      group === 'day'
        ? this.readDayPieces(q.team_id, memberId, range, zone).then((pieces) => ({ pieces }))
        : group === 'project'
          ? listTeamProjects(db.kysely, q.team_id, memberId, PROJECT_ROWS).then((projects) => ({ projects }))
          : group === 'member'
            ? listMembers(db.kysely, q.team_id).then((members) => ({ members }))
            : Promise.resolve({});
    own.catch(() => undefined); // awaited below; a failed window read must not leave it unhandled
    let prices = this.deps.prices.serving();
    for (let attempt = 1; ; attempt++) {
      const read = await listTeamWindowUsage(db, q.team_id, memberId, range.startMs, range.endMs, group === 'member');
      if (read.pricedBy === null || read.pricedBy === prices.fingerprint || attempt === MAX_PRICED_ATTEMPTS) {
        const keep = filterOf(q, prices);
        const usage = { ...read, priced: read.priced.filter(keep), edges: read.edges.filter(keep) };
        const head = { team_id: q.team_id, from: range.from, to: range.to, tz: zone.id, group_by: group };
        const rows = rowsOf(group, range, usage, prices, await own, keep);
        return {
          ...head,
          ...(memberId !== null ? { user_id: memberId } : {}),
          ...(q.source !== undefined ? { source: q.source } : {}),
          ...(q.model !== undefined ? { model: q.model } : {}),
          ...(group === 'project' ? { all_time: true } : {}),
          totals: rows.totals ?? totalOf(usage, prices),
          rows: rows.rows,
        };
      }
      prices = await this.deps.prices.of(read.pricedBy);
    }
  }

  /**
   * The team's local-day pieces over the range, one read per stretch of constant UTC offset, one
   * after another: on PostgreSQL the stretches' reads side by side (three for a year in New York,
   * beside the window's read) competed for the cores: a year's p99 was 56–69 ms where one after
   * another gave 46–63, at the same or a lower p50 (bench:teams, five paired runs).
   */
  private async readDayPieces(
    teamId: string,
    memberId: string | null,
    range: ResolvedDateRange,
    zone: ReturnType<typeof resolveZone>,
  ): Promise<LocalDayPiece[][]> {
    const { segmentStarts, segmentOffsets } = offsetTimeline(zone, range.startMs, range.endMs);
    const reads: LocalDayPiece[][] = [];
    for (let i = 0; i < segmentStarts.length; i++) {
      const start = Math.max(range.startMs, segmentStarts[i] as number);
      const end = Math.min(range.endMs, segmentStarts[i + 1] ?? Number.POSITIVE_INFINITY);
      if (end > start)
        reads.push(
          await listTeamLocalDayPieces(this.deps.db, teamId, memberId, start, end, segmentOffsets[i] as number),
        );
    }
    return reads;
  }

  async leaderboard(userId: string, q: TeamLeaderboardQuery): Promise<TeamLeaderboardResponse> {
    const { db, teams, clock } = this.deps;
    await teams.require(q.team_id, userId, 'member');
    const metric = q.metric ?? 'all';
    const now = clock.now();
    const window = periodWindow(q.period, now);
    const [totals, members] = await Promise.all([
      listTeamFamilyTotals(db.kysely, q.team_id, q.period, { week: window.weekKey, month: window.monthKey }),
      listMembers(db.kysely, q.team_id),
    ]);
    const ranked = new Map<string, RankedRow>(rankUsers(totals).map((r) => [r.userId, r]));
    const place = (id: string): number => ranked.get(id)?.pos[metric] ?? Number.MAX_SAFE_INTEGER;
    const entries = members
      .map((m) => {
        const r = ranked.get(m.userId);
        return {
          rank: r?.rank[metric] ?? null,
          user_id: m.userId,
          display_name: m.displayName,
          avatar_url: m.avatarUrl,
          total_tokens: (r?.total ?? 0n).toString(),
          gpt_tokens: (r?.gpt ?? 0n).toString(),
          claude_tokens: (r?.claude ?? 0n).toString(),
          other_tokens: (r?.other ?? 0n).toString(),
          ...costsWire(r ?? NO_COSTS),
          is_public: false,
          role: m.role as TeamRole,
        };
      })
      .sort((a, b) => place(a.user_id) - place(b.user_id) || (a.user_id < b.user_id ? -1 : 1));
    return {
      team_id: q.team_id,
      period: q.period,
      from: window.fromDay,
      to: window.toDay,
      generated_at: new Date(now).toISOString(),
      metric,
      page: 1,
      limit: entries.length,
      offset: 0,
      total_entries: entries.length,
      total_pages: 1,
      entries,
      me: entries.find((e) => e.user_id === userId) ?? null,
    };
  }
}
