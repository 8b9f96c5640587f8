/**
 * @fileoverview The `usage.daily` event (docs/webhooks.md): for each endpoint listening to it, the
 * previous local day's totals by source and model in the endpoint's zone, queued once after that
 * day ends. Run by a scheduled job every few minutes on every instance: the message's dedupe key
 * (endpoint, date) makes it one in all.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { dedupeKeyQueued, insertMessage, listEnabledFor } from '../db/queries/webhooks.js';
import { epochDayOf, formatEpochDay } from '../domain/calendar.js';
import { localDateAt, resolveZone, startOfLocalEpochDay } from '../domain/zones.js';
import type { PriceService, PriceSource } from '../pricing/index.js';
import type { TeamAccess } from './team-access.js';
import { usageBySourceModel } from './usage-measure.js';
import { eventBody, newMessageId } from './webhook-events.js';

export interface UsageDailyDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly prices: PriceSource<PriceService>;
  readonly teams: TeamAccess;
}

/** Queues yesterday's usage.daily for every listening endpoint that has not had it; returns how many were queued. */
export async function queueUsageDaily(deps: UsageDailyDeps): Promise<number> {
  const now = deps.clock.now();
  let queued = 0;
  for (const hook of await listEnabledFor(deps.db.kysely, 'usage.daily')) {
    const zone = resolveZone({ tz: hook.tz });
    const today = epochDayOf(localDateAt(zone, now));
    const date = formatEpochDay(today - 1);
    const dedupeKey = `${hook.id}:usage.daily:${date}`;
    if (await dedupeKeyQueued(deps.db.kysely, dedupeKey)) continue;
    const startMs = startOfLocalEpochDay(zone, today - 1);
    const endMs = startOfLocalEpochDay(zone, today);
    // An endpoint registered after the day ended starts with the next day.
    if (hook.createdAt >= endMs) continue;
    const users =
      hook.scope === 'team' && hook.teamId !== null ? await deps.teams.memberIds(hook.teamId) : [hook.userId];
    const usage = await usageBySourceModel(deps.db, deps.prices, users, startMs, endMs);
    const data = {
      scope: hook.scope,
      user_id: hook.scope === 'user' ? hook.userId : null,
      team_id: hook.teamId,
      date,
      tz: hook.tz,
      from: new Date(startMs).toISOString(),
      to: new Date(endMs).toISOString(),
      ...usage,
    };
    const inserted = await insertMessage(deps.db.kysely, {
      id: newMessageId(),
      webhook_id: hook.id,
      event_type: 'usage.daily',
      body: eventBody('usage.daily', now, data),
      dedupe_key: dedupeKey,
      created_at: now,
      next_attempt_at: now,
    });
    if (inserted) queued++;
  }
  return queued;
}
