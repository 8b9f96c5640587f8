/**
 * @fileoverview The team-side read model (migrations 0029, 0030) against its definition: every
 * team's `team_usage_rollup`, `team_usage_spans` and `team_usage_daily` rows equal the sums of its
 * current members' `usage_rollup` rows (per half-hour, per 4 hours) and `usage_daily` rows (the
 * stored costs too), all-zero rows on either side left out.
 */
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/connect.js';

const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];

/** Each non-zero row as `team time source model: counts (and cost)`, sorted. */
async function lines(db: Queryable, text: string): Promise<string[]> {
  const { rows } = await sql.raw<Record<string, unknown>>(text).execute(db);
  return rows
    .map((r) => Object.values(r).map((v) => String(v)))
    .filter((v) => v.slice(4).some((c) => c !== '0'))
    .map((v) => `${v.slice(0, 4).join(' ')}: ${v.slice(4).join(' ')}`)
    .sort();
}

/** Expects both team tables to equal their brute-force sums over the teams' current members. */
export async function expectTeamModelInStep(db: Queryable, step = ''): Promise<void> {
  for (const [table, time, from, of, summed] of [
    ['team_usage_rollup', 'hour_start', 'usage_rollup', 'r.hour_start', COUNTS],
    ['team_usage_spans', 'span_start', 'usage_rollup', '(r.hour_start / 14400000) * 14400000', COUNTS],
    ['team_usage_daily', 'day', 'usage_daily', 'r.day', [...COUNTS, 'cost_micros']],
  ] as const) {
    const stored = await lines(db, `select team_id, ${time}, source, model, ${summed.join(', ')} from ${table}`);
    const brute = await lines(
      db,
      `select m.team_id, ${of}, r.source, r.model, ${summed.map((c) => `sum(r.${c}) as ${c}`).join(', ')}
         from team_members m join ${from} r on r.user_id = m.user_id
        group by m.team_id, ${of}, r.source, r.model`,
    );
    expect(stored, `${table} ${step}`).toEqual(brute);
  }
}
