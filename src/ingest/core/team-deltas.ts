/**
 * @fileoverview Pure: a group's changes to the team-side read model (migrations 0029, 0030;
 * docs/teams.md, "Speed"). Each user's rollup deltas (per half-hour, and summed per 4-hour span)
 * and `usage_daily` deltas (with the change of the row's stored cost) go to every team the user is
 * a member of, summed per team row over the group's users, so each team row is written once a
 * group (PostgreSQL cannot upsert one row twice in a statement). Users in no team add nothing.
 */
import { addCounts, copyCounts, isZeroCounts, type TokenCounts } from '../../domain/token-counts.js';
import type { TeamDailyRow, TeamReadModels, TeamRollupRow, TeamSpanRow } from '../../db/queries/ingest-rows.js';
import { SPAN_MS } from '../../domain/calendar.js';
import type { DailyDelta } from './read-model-deltas.js';
import type { RollupDelta } from './plan.js';

/** One user's deltas and teams; each daily delta with its row's stored cost after less before. */
export interface MemberDeltas {
  readonly teams: readonly string[];
  readonly rollup: readonly RollupDelta[];
  readonly daily: readonly (DailyDelta & { readonly costMicros: bigint })[];
}

/** The row of `key` in `rows` with `delta` added; a new row is `make()`, its counts a copy of the delta's. */
function addTo<R extends TokenCounts>(
  rows: Map<string, R>,
  key: string,
  delta: Readonly<TokenCounts>,
  make: () => R,
): R {
  const row = rows.get(key);
  if (row !== undefined) {
    addCounts(row, delta);
    return row;
  }
  const made = make();
  rows.set(key, made);
  return made;
}

/** Sums the members' deltas per team row (rows that do not move left out). */
export function teamDeltas(members: readonly MemberDeltas[]): TeamReadModels {
  const rollup = new Map<string, TeamRollupRow>();
  const spans = new Map<string, TeamSpanRow>();
  const daily = new Map<string, TeamDailyRow>();
  for (const m of members) {
    for (const teamId of m.teams) {
      for (const r of m.rollup) {
        const { hourStart, source, model } = r;
        addTo(rollup, `${teamId}\u0000${hourStart}\u0000${source}\u0000${model}`, r, () => ({
          teamId,
          hourStart,
          source,
          model,
          ...copyCounts(r),
        }));
        const spanStart = hourStart - (hourStart % SPAN_MS);
        addTo(spans, `${teamId}\u0000${spanStart}\u0000${source}\u0000${model}`, r, () => ({
          teamId,
          spanStart,
          source,
          model,
          ...copyCounts(r),
        }));
      }
      for (const d of m.daily) {
        const { day, source, model } = d;
        const row = addTo(daily, `${teamId}\u0000${day}\u0000${source}\u0000${model}`, d, () => ({
          teamId,
          day,
          source,
          model,
          ...copyCounts(d),
          costMicros: 0n,
        }));
        row.costMicros += d.costMicros;
      }
    }
  }
  return {
    rollup: [...rollup.values()].filter((r) => !isZeroCounts(r)),
    spans: [...spans.values()].filter((r) => !isZeroCounts(r)),
    // members' count changes may cancel in a team's row where their costs (each truncated) do not
    daily: [...daily.values()].filter((r) => r.costMicros !== 0n || !isZeroCounts(r)),
  };
}
