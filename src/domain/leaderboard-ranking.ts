/**
 * @fileoverview Pure leaderboard rules: the UTC windows of each period and the ranking of users
 * per metric (dense ranks by billable tokens, ties ordered by user id, only users with usage in
 * the metric ranked).
 */
import {
  DAY_MS,
  dayOfWeek,
  firstEpochDayOfMonth,
  formatEpochDay,
  monthIndexOfEpochDay,
  type LocalDate,
} from './calendar.js';

export const PERIODS = ['week', 'month', 'total'] as const;
/** Paging bounds of getLeaderboard (interface): pages never reach past place MAX_OFFSET + MAX_LIMIT. */
export const MAX_LIMIT = 100;
export const MAX_OFFSET = 10_000;
export const LAST_LISTED_PLACE = MAX_OFFSET + MAX_LIMIT;
export type Period = (typeof PERIODS)[number];
export const METRICS = ['all', 'gpt', 'claude', 'other'] as const;
export type Metric = (typeof METRICS)[number];

/** A period's window: UTC days [fromDay, toDay] and the instants [startMs, endMs). */
export interface PeriodWindow {
  period: Period;
  fromDay: LocalDate;
  toDay: LocalDate;
  startMs: number;
  endMs: number;
  /** Keys of the aggregate tables: ISO week number floor((epoch day + 3) / 7) and month index. */
  weekKey: number;
  monthKey: number;
}

/** First and last day of `total`: the first day the service accepts usage for, and the end of the calendar. */
const TOTAL_FROM: LocalDate = '2020-01-01';
const TOTAL_TO: LocalDate = '9999-12-31';

/** The UTC window containing `nowMs`: ISO week (Monday start), calendar month, or all time. */
export function periodWindow(period: Period, nowMs: number): PeriodWindow {
  const today = Math.floor(nowMs / DAY_MS);
  const keys = { weekKey: Math.floor((today + 3) / 7), monthKey: monthIndexOfEpochDay(today) };
  if (period === 'week') {
    const monday = today - ((dayOfWeek(today) + 6) % 7);
    return {
      period,
      fromDay: formatEpochDay(monday),
      toDay: formatEpochDay(monday + 6),
      startMs: monday * DAY_MS,
      endMs: (monday + 7) * DAY_MS,
      ...keys,
    };
  }
  if (period === 'month') {
    const first = firstEpochDayOfMonth(keys.monthKey);
    const next = firstEpochDayOfMonth(keys.monthKey + 1);
    return {
      period,
      fromDay: formatEpochDay(first),
      toDay: formatEpochDay(next - 1),
      startMs: first * DAY_MS,
      endMs: next * DAY_MS,
      ...keys,
    };
  }
  return {
    period,
    fromDay: TOTAL_FROM,
    toDay: TOTAL_TO,
    startMs: Number.MIN_SAFE_INTEGER,
    endMs: Number.MAX_SAFE_INTEGER,
    ...keys,
  };
}

/** Stored costs (micro-dollars) of one user in one period, per family: shown beside the tokens, never ranked. */
export interface FamilyCosts {
  gptCost: bigint;
  claudeCost: bigint;
  otherCost: bigint;
}

/** Billable tokens of one user in one period, per family, and their costs. */
export interface UserTotals extends FamilyCosts {
  userId: string;
  gpt: bigint;
  claude: bigint;
  other: bigint;
}

/** A ranked row: totals plus, per metric, the dense rank and the 1-based place (null without usage in it). */
export interface RankedRow extends FamilyCosts {
  userId: string;
  total: bigint;
  gpt: bigint;
  claude: bigint;
  other: bigint;
  totalCost: bigint;
  rank: Record<Metric, number | null>;
  pos: Record<Metric, number | null>;
}

export function metricValue(
  row: { total: bigint; gpt: bigint; claude: bigint; other: bigint },
  metric: Metric,
): bigint {
  return metric === 'all' ? row.total : row[metric];
}

/** Ranks every user with usage; users with zero billable tokens in the period are left out. */
export function rankUsers(users: readonly UserTotals[]): RankedRow[] {
  const rows: RankedRow[] = [];
  for (const u of users) {
    const total = u.gpt + u.claude + u.other;
    if (total <= 0n) continue;
    rows.push({
      userId: u.userId,
      total,
      gpt: u.gpt,
      claude: u.claude,
      other: u.other,
      gptCost: u.gptCost,
      claudeCost: u.claudeCost,
      otherCost: u.otherCost,
      totalCost: u.gptCost + u.claudeCost + u.otherCost,
      rank: { all: null, gpt: null, claude: null, other: null },
      pos: { all: null, gpt: null, claude: null, other: null },
    });
  }
  // Sums below 2^53 sort as numbers (several times faster than bigint comparisons); larger ones as bigints.
  const exact = rows.every((r) => r.total <= BigInt(Number.MAX_SAFE_INTEGER));
  for (const metric of METRICS) {
    const ranked = rows
      .filter((r) => metricValue(r, metric) > 0n)
      .map((row) => ({ row, value: metricValue(row, metric), key: Number(metricValue(row, metric)) }));
    ranked.sort((a, b) => {
      if (exact ? a.key !== b.key : a.value !== b.value) return (exact ? a.key > b.key : a.value > b.value) ? -1 : 1;
      return a.row.userId < b.row.userId ? -1 : a.row.userId > b.row.userId ? 1 : 0;
    });
    let rank = 0;
    let previous: bigint | undefined;
    ranked.forEach(({ row, value }, index) => {
      if (value !== previous) {
        rank += 1;
        previous = value;
      }
      row.rank[metric] = rank;
      row.pos[metric] = index + 1;
    });
  }
  return rows;
}

/** Rows per metric (users with usage in it), for the generation record. */
export function countsOf(rows: readonly RankedRow[]): Record<Metric, number> {
  const counts: Record<Metric, number> = { all: 0, gpt: 0, claude: 0, other: 0 };
  for (const row of rows) for (const metric of METRICS) if (row.pos[metric] !== null) counts[metric] += 1;
  return counts;
}
