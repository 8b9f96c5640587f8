/**
 * @fileoverview Public profile pages (docs/sharing.md, "The public profile"): the handle and the
 * per-field switches a user keeps, the address `/u/<handle|user_id>` resolved to its user, and the
 * page's figures — a year in UTC (heatmap, streaks, totals with cost, top models and tools) and the
 * leaderboard ranks — of which only the fields the owner made public are read and answered.
 */
import { compactNumber } from '../badges/text.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { findProfileSettings, findUserIdByHandle, saveProfileSettings } from '../db/queries/public-profiles.js';
import { findPublicView } from '../db/queries/sharing.js';
import { findUserById } from '../db/queries/users.js';
import { Conflict, Forbidden, invalidField } from '../domain/errors.js';
import type { Period } from '../domain/leaderboard-ranking.js';
import {
  fieldsFromText,
  fieldsToText,
  handleFault,
  normalizeHandle,
  PROFILE_FIELDS,
  type ProfileFields,
} from '../domain/public-profile.js';
import { formatMicros, parseMicros } from '../pricing/money.js';
import type { PublicProfilePageResponse } from '../schemas/profile.js';
import type { AnalyticsService } from './analytics.js';
import type { LeaderboardService } from './leaderboard.js';
import { publicAvatarUrl, publicDisplayName } from './public-profile.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOP_MODELS = 5;
const TOP_SOURCES = 6;
const RANK_PERIODS: readonly Period[] = ['week', 'month', 'total'];
const NOT_PUBLIC = 'This profile is not public.';

export interface ProfileSettings {
  handle: string | null;
  fields: ProfileFields;
}

/** What a link preview of a public page shows (routes/dashboard-preview.ts). */
export interface ProfilePreview {
  userId: string;
  handle: string | null;
  name: string;
  avatarUrl: string | null;
  fields: ProfileFields;
  /** One line of the figures the owner made public. */
  description: string;
  /** Whether the card (which shows tokens and rank) may be the preview's image. */
  cardImage: boolean;
}

interface Tally {
  name: string;
  tokens: bigint;
  cost: bigint;
}

function add(into: Map<string, Tally>, key: string, name: string, tokens: string, cost: string): void {
  const t = into.get(key) ?? { name, tokens: 0n, cost: 0n };
  t.tokens += BigInt(tokens);
  t.cost += parseMicros(cost);
  into.set(key, t);
}

function top<K extends string>(tallies: Map<string, Tally>, n: number, key: K, cost: boolean) {
  return [...tallies.values()]
    .filter((t) => t.tokens > 0n)
    .sort((a, b) => (b.tokens > a.tokens ? 1 : b.tokens < a.tokens ? -1 : a.name.localeCompare(b.name)))
    .slice(0, n)
    .map((t) => ({
      [key]: t.name,
      total_tokens: t.tokens.toString(),
      ...(cost ? { total_cost_usd: formatMicros(t.cost) } : {}),
    })) as Array<Record<K, string> & { total_tokens: string; total_cost_usd?: string }>;
}

/** The longest run of active days in the grid. */
function longestStreak(weeks: ReadonlyArray<ReadonlyArray<{ value: string } | null>>): number {
  let best = 0;
  let run = 0;
  for (const week of weeks)
    for (const cell of week) {
      if (cell === null) continue;
      run = BigInt(cell.value) > 0n ? run + 1 : 0;
      best = Math.max(best, run);
    }
  return best;
}

export class ProfilePageService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      analytics: AnalyticsService;
      leaderboard: LeaderboardService;
    },
  ) {}

  async settings(userId: string): Promise<ProfileSettings> {
    const row = await findProfileSettings(this.deps.db.kysely, userId);
    return { handle: row?.handle ?? null, fields: fieldsFromText(row?.fields) };
  }

  /** Sets or clears the handle (`null` or `""`) and switches fields; what is not given stays. */
  async saveSettings(
    userId: string,
    change: { handle?: string | null | undefined; fields?: Partial<ProfileFields> | undefined },
  ): Promise<ProfileSettings> {
    const current = await this.settings(userId);
    let handle = current.handle;
    if (change.handle !== undefined) {
      handle = change.handle === null ? null : normalizeHandle(change.handle);
      if (handle === '') handle = null;
      if (handle !== null) {
        const fault = handleFault(handle);
        if (fault) throw invalidField({ in: 'body', field: 'handle' }, fault);
      }
    }
    const fields = { ...current.fields };
    for (const f of PROFILE_FIELDS) {
      const v = change.fields?.[f];
      if (v !== undefined) fields[f] = v;
    }
    const kysely = this.deps.db.kysely;
    const taken = async () => handle !== null && ((await findUserIdByHandle(kysely, handle)) ?? userId) !== userId;
    const conflict = () => new Conflict('This handle is taken; choose another.', { reason: 'handle_taken' });
    if (await taken()) throw conflict();
    try {
      await saveProfileSettings(kysely, userId, { handle, fields: fieldsToText(fields) }, this.deps.clock.now());
    } catch (error) {
      if (await taken()) throw conflict(); // a concurrent claim of the same handle won
      throw error;
    }
    return { handle, fields };
  }

  /** The user an address names: a user id (any case) or a handle (any case), else undefined. */
  async resolve(address: string): Promise<string | undefined> {
    const text = address.trim().toLowerCase();
    if (UUID.test(text)) return text;
    if (handleFault(text) !== undefined) return undefined;
    return findUserIdByHandle(this.deps.db.kysely, text);
  }

  private async isPublic(userId: string): Promise<boolean> {
    return (await findPublicView(this.deps.db.kysely, userId))?.enabled ?? false;
  }

  /** A public page's preview facts, or undefined (unknown, not public). */
  async preview(address: string): Promise<ProfilePreview | undefined> {
    const userId = await this.resolve(address);
    if (userId === undefined || !(await this.isPublic(userId))) return undefined;
    const [user, settings] = await Promise.all([findUserById(this.deps.db.kysely, userId), this.settings(userId)]);
    if (!user) return undefined;
    const { fields } = settings;
    const standing =
      fields.totals || fields.ranks ? await this.deps.leaderboard.publicStanding(userId, 'total', 'all') : undefined;
    const parts: string[] = [];
    if (standing && fields.totals) parts.push(`${compactNumber(standing.total)} AI tokens all time`);
    if (standing && fields.ranks && standing.rank !== null)
      parts.push(`#${standing.rank} of ${standing.ranked} on the leaderboard`);
    return {
      userId,
      handle: settings.handle,
      name: publicDisplayName(user.display_name) ?? settings.handle ?? 'A Tokentally user',
      avatarUrl: publicAvatarUrl(user.avatar_url),
      fields,
      description:
        parts.length > 0
          ? `${parts.join(' · ')}. AI coding agent usage on Tokentally.`
          : 'AI coding agent usage on Tokentally.',
      cardImage: fields.totals && fields.ranks,
    };
  }

  /**
   * The page at this address: anyone's while public, the owner's own always (with `is_public`
   * false while it is not); anything else — unknown, private — is the same 403.
   */
  async page(address: string, callerId: string | undefined): Promise<PublicProfilePageResponse> {
    const userId = await this.resolve(address);
    if (userId === undefined) throw new Forbidden(NOT_PUBLIC);
    const isPublic = await this.isPublic(userId);
    if (!isPublic && callerId !== userId) throw new Forbidden(NOT_PUBLIC);
    const [user, settings] = await Promise.all([findUserById(this.deps.db.kysely, userId), this.settings(userId)]);
    if (!user) throw new Forbidden(NOT_PUBLIC);
    const { fields } = settings;
    const { analytics, leaderboard } = this.deps;

    const wantsGrid = fields.heatmap || fields.streaks;
    const grid = await analytics.heatmap(userId, { tz: 'UTC', week_starts_on: 'mon' });
    const range = { tz: 'UTC', from: grid.from, to: grid.to };
    const [summary, breakdown, ranks] = await Promise.all([
      fields.totals || fields.cost ? analytics.summary(userId, range) : undefined,
      fields.models || fields.sources ? analytics.modelBreakdown(userId, range) : undefined,
      fields.ranks
        ? Promise.all(RANK_PERIODS.map((period) => leaderboard.profile({ userId, period, callerId: userId })))
        : undefined,
    ]);

    const body: PublicProfilePageResponse = {
      user_id: userId,
      handle: settings.handle,
      display_name: publicDisplayName(user.display_name),
      avatar_url: publicAvatarUrl(user.avatar_url),
      is_public: isPublic,
      fields,
      from: grid.from,
      to: grid.to,
    };
    if (fields.heatmap)
      body.heatmap = { week_starts_on: grid.week_starts_on, active_days: grid.active_days, weeks: grid.weeks };
    if (wantsGrid && fields.streaks)
      body.streaks = { current_days: grid.streak_days, longest_days: longestStreak(grid.weeks) };
    if (summary) {
      const t = summary.totals;
      body.totals = {
        ...(fields.totals
          ? {
              total_tokens: t.total_tokens,
              billable_total_tokens: t.billable_total_tokens,
              input_tokens: t.input_tokens,
              output_tokens: t.output_tokens,
            }
          : {}),
        ...(fields.cost ? { total_cost_usd: t.total_cost_usd } : {}),
      };
    }
    if (breakdown) {
      const models = new Map<string, Tally>();
      const sources = new Map<string, Tally>();
      for (const s of breakdown.sources) {
        add(sources, s.source, s.source, s.totals.total_tokens, s.totals.total_cost_usd);
        for (const m of s.models) add(models, m.model_id, m.model, m.totals.total_tokens, m.totals.total_cost_usd);
      }
      if (fields.models) body.models = top(models, TOP_MODELS, 'model', fields.cost);
      if (fields.sources) body.sources = top(sources, TOP_SOURCES, 'source', fields.cost);
    }
    if (ranks) body.ranks = ranks.map((r) => ({ period: r.period, rank: r.entry.rank, from: r.from, to: r.to }));
    return body;
  }
}
