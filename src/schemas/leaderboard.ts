/** @fileoverview getLeaderboard, getLeaderboardProfile and refreshLeaderboard. */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_LIMIT, MAX_OFFSET } from '../domain/leaderboard-ranking.js';
import { DateTime, Uuid } from './common.js';

const Period = Type.Union([Type.Literal('week'), Type.Literal('month'), Type.Literal('total')], {
  description: 'UTC calendar window: ISO week (Monday start), calendar month, or all time.',
});
const Metric = Type.Union([Type.Literal('all'), Type.Literal('gpt'), Type.Literal('claude'), Type.Literal('other')], {
  description:
    'Model family ranked: gpt (gpt-*, o1*…o4*, openai/*), claude (claude-*, anthropic/*), other (the rest), all.',
});
const Day = Type.String({ format: 'date' });
const Tokens = Type.String({ pattern: '^[0-9]+$', description: 'Billable tokens, decimal.' });
const Usd = Type.String({
  pattern: '^[0-9]+\\.[0-9]{6}$',
  description: "Stored cost of the usage in the period, USD with 6 places (the family's, or all for total).",
});
/**
 * Nullable scalars as `type: [T, 'null']` rather than `anyOf`: the response serializer writes these
 * directly, where an `anyOf` makes it validate each value to pick a branch (20 entries a page).
 */
const nullable = <T>(type: 'string' | 'integer', extra: Record<string, unknown> = {}) =>
  Type.Unsafe<T | null>({ type: [type, 'null'], ...extra });
const NullableString = nullable<string>('string');

export const LeaderboardQuery = Type.Object({
  period: Period,
  metric: Type.Optional({ ...Metric, default: 'all' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
});
export type LeaderboardQuery = Static<typeof LeaderboardQuery>;

export const LeaderboardProfileQuery = Type.Object({
  user_id: Uuid,
  period: Type.Optional({ ...Period, default: 'week' }),
});
export type LeaderboardProfileQuery = Static<typeof LeaderboardProfileQuery>;

export const RefreshLeaderboardQuery = Type.Object({ period: Type.Optional(Period) });
export type RefreshLeaderboardQuery = Static<typeof RefreshLeaderboardQuery>;

export const LeaderboardEntry = Type.Object(
  {
    rank: nullable<number>('integer', {
      minimum: 1,
      description: 'Dense rank in the metric; null without usage in it.',
    }),
    user_id: nullable<string>('string', { format: 'uuid', description: 'Null unless the user is public.' }),
    display_name: NullableString,
    avatar_url: nullable<string>('string', { format: 'uri' }),
    total_tokens: Tokens,
    gpt_tokens: Tokens,
    claude_tokens: Tokens,
    other_tokens: Tokens,
    total_cost_usd: Usd,
    gpt_cost_usd: Usd,
    claude_cost_usd: Usd,
    other_cost_usd: Usd,
    is_public: Type.Boolean(),
  },
  { additionalProperties: true },
);
export type LeaderboardEntry = Static<typeof LeaderboardEntry>;

const SnapshotFields = {
  period: Type.String(),
  from: Day,
  to: Day,
  generated_at: DateTime,
};

export const LeaderboardResponse = Type.Object({
  ...SnapshotFields,
  metric: Type.String(),
  page: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  total_entries: Type.Integer(),
  total_pages: Type.Integer(),
  entries: Type.Array(LeaderboardEntry),
  me: Type.Unsafe<Static<typeof LeaderboardEntry> | null>({
    ...LeaderboardEntry,
    type: ['object', 'null'],
    description: "The caller's own row (signed-in callers), even outside the page; null for anonymous callers.",
  }),
});

export type LeaderboardResponse = Static<typeof LeaderboardResponse>;

export const LeaderboardProfileResponse = Type.Object({ ...SnapshotFields, entry: LeaderboardEntry });
export type LeaderboardProfileResponse = Static<typeof LeaderboardProfileResponse>;

export const RefreshLeaderboardResponse = Type.Object(
  {
    success: Type.Boolean(),
    generated_at: DateTime,
    results: Type.Array(Type.Object({ period: Type.String(), from: Day, to: Day, rows: Type.Integer() })),
  },
  { additionalProperties: true },
);
export type RefreshLeaderboardResponse = Static<typeof RefreshLeaderboardResponse>;
