/**
 * @fileoverview A budget's period as an instant window, and its thresholds: the local week (from
 * the budget's week start) or the local month holding an instant, in the budget's zone
 * (docs/budgets.md). Pure.
 */
import { dayOfWeek, epochDayOf, firstEpochDayOfMonth, formatEpochDay, monthIndexOf } from './calendar.js';
import { localDateAt, startOfLocalEpochDay, type Zone } from './zones.js';

export type BudgetPeriod = 'week' | 'month';
export type WeekStart = 'mon' | 'sun';

/** The thresholds a budget gets when none are given (per cent of its limit). */
export const DEFAULT_THRESHOLDS: readonly number[] = [50, 80, 100];

export interface PeriodWindow {
  readonly startMs: number;
  readonly endMs: number;
  /** The local date the period starts on (YYYY-MM-DD). */
  readonly startDate: string;
}

/** The local week or month of `zone` holding `nowMs`. */
export function periodWindow(period: BudgetPeriod, zone: Zone, weekStart: WeekStart, nowMs: number): PeriodWindow {
  const today = epochDayOf(localDateAt(zone, nowMs));
  let first: number;
  let next: number;
  if (period === 'week') {
    const startDow = weekStart === 'sun' ? 0 : 1;
    first = today - ((dayOfWeek(today) - startDow + 7) % 7);
    next = first + 7;
  } else {
    const month = monthIndexOf(localDateAt(zone, nowMs));
    first = firstEpochDayOfMonth(month);
    next = firstEpochDayOfMonth(month + 1);
  }
  return {
    startMs: startOfLocalEpochDay(zone, first),
    endMs: startOfLocalEpochDay(zone, next),
    startDate: formatEpochDay(first),
  };
}

/** The thresholds (ascending, distinct) that `spend` has reached out of `limit`. */
export function crossedThresholds(spend: bigint, limit: bigint, thresholds: readonly number[]): number[] {
  if (limit <= 0n) return [...thresholds];
  return thresholds.filter((t) => spend * 100n >= limit * BigInt(t));
}

/** Thresholds as stored (`50,80,100`) from a list, sorted and without duplicates. */
export function formatThresholds(thresholds: readonly number[]): string {
  return [...new Set(thresholds)].sort((a, b) => a - b).join(',');
}

export function parseThresholds(text: string): number[] {
  return text === '' ? [] : text.split(',').map(Number);
}
