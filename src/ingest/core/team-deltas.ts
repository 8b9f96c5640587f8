/**
 * @fileoverview Pure: a group's changes to the team-side read model (migrations 0029, 0030;
 * docs/teams.md, "Speed"). Each user's rollup deltas (per half-hour, and summed per 4-hour span)
 * and `usage_daily` deltas (with the change of the row's stored cost) go to every team the user is
 * a member of, summed per team row over the group's users, so each team row is written once a
 * group (PostgreSQL cannot upsert one row twice in a statement). Users in no team add nothing.
 */
import { addCounts, copyCounts, isZeroCounts } from '../../domain/token-counts.js';
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

/** Sums the members' deltas per team row (rows that do not move left out). */
export function teamDeltas(members: readonly MemberDeltas[]): TeamReadModels {
  const rollup = new Map<string, TeamRollupRow>();
  const spans = new Map<string, TeamSpanRow>();
  const daily = new Map<string, TeamDailyRow>();
  for (const m of members) {
    for (const teamId of m.teams) {
      for (const r of m.rollup) {
        const key = `${teamId}\u0000${r.hourStart}\u0000${r.source}\u0000${r.model}`;
        const row = rollup.get(key);
        if (row === undefined)
          rollup.set(key, { teamId, hourStart: r.hourStart, source: r.source, model: r.model, ...copyCounts(r) });
        else addCounts(row, r);
        const spanStart = r.hourStart - (r.hourStart % SPAN_MS);
        const spanKey = `${teamId}\u0000${spanStart}\u0000${r.source}\u0000${r.model}`;
        const span = spans.get(spanKey);
        if (span === undefined)
          spans.set(spanKey, { teamId, spanStart, source: r.source, model: r.model, ...copyCounts(r) });
        else addCounts(span, r);
      }
      for (const d of m.daily) {
        const key = `${teamId}\u0000${d.day}\u0000${d.source}\u0000${d.model}`;
        const row = daily.get(key);
        if (row === undefined)
          daily.set(key, {
            teamId,
            day: d.day,
            source: d.source,
            model: d.model,
            ...copyCounts(d),
            costMicros: d.costMicros,
          });
        else {
          addCounts(row, d);
          row.costMicros += d.costMicros;
        }
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
