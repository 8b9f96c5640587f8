/**
 * @fileoverview Teams (docs/teams.md): the team, member and invite operations, and the team usage
 * and leaderboard reads. Every request string is bounded (http/schema-bounds.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';
import { LeaderboardResponse } from './leaderboard.js';
import { SummaryQuery, TokenCountsWithCost } from './usage.js';

export const TEAM_NAME_MAX = 80;
export const INVITE_HOURS_MAX = 24 * 90;
export const INVITE_HOURS_DEFAULT = 24 * 7;
export const INVITE_USES_MAX = 1000;

export const TeamRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
const Name = Type.String({ minLength: 1, maxLength: TEAM_NAME_MAX, pattern: '\\S' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const Team = Type.Object({ id: Uuid, name: Type.String(), slug: Type.String(), role: TeamRole });
export type Team = Static<typeof Team>;
export const TeamListEntry = Type.Object({ ...Team.properties, members: Type.Integer(), created_at: DateTime });
export const TeamListResponse = Type.Object({ teams: Type.Array(TeamListEntry) });
export type TeamListResponse = Static<typeof TeamListResponse>;

export const TeamCreateRequest = Type.Object({ name: Name }, { additionalProperties: false });
export type TeamCreateRequest = Static<typeof TeamCreateRequest>;
export const TeamUpdateRequest = Type.Object(
  { team_id: Uuid, name: Type.Optional(Name) },
  { additionalProperties: false },
);
export type TeamUpdateRequest = Static<typeof TeamUpdateRequest>;
export const TeamIdRequest = Type.Object({ team_id: Uuid }, { additionalProperties: false });
export type TeamIdRequest = Static<typeof TeamIdRequest>;
export const TeamIdQuery = Type.Object({ team_id: Uuid });
export type TeamIdQuery = Static<typeof TeamIdQuery>;
export const TeamDeleteResponse = Type.Object({ deleted: Type.Literal(true), team_id: Uuid });

export const InviteCreateRequest = Type.Object(
  {
    team_id: Uuid,
    role: Type.Optional(TeamRole),
    expires_in_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: INVITE_HOURS_MAX })),
    max_uses: Type.Optional(Type.Integer({ minimum: 1, maximum: INVITE_USES_MAX })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  },
  { additionalProperties: false },
);
export type InviteCreateRequest = Static<typeof InviteCreateRequest>;
export const InviteCreateResponse = Type.Object({
  id: Uuid,
  invite_token: Type.String({ description: 'Shown this once; stored only as its SHA-256.' }),
  url: Type.String(),
  expires_at: DateTime,
  emailed: Type.Boolean({ description: 'An e-mail invite was queued (email given and SMTP configured).' }),
});
export type InviteCreateResponse = Static<typeof InviteCreateResponse>;
export const InviteEntry = Type.Object({
  id: Uuid,
  role: TeamRole,
  email: Nullable(Type.String()),
  max_uses: Type.Integer(),
  uses: Type.Integer(),
  created_at: DateTime,
  expires_at: DateTime,
  revoked_at: Nullable(DateTime),
  state: Type.Union([
    Type.Literal('active'),
    Type.Literal('expired'),
    Type.Literal('used_up'),
    Type.Literal('revoked'),
  ]),
});
export type InviteEntry = Static<typeof InviteEntry>;
export const InviteListResponse = Type.Object({ team_id: Uuid, invites: Type.Array(InviteEntry) });
export type InviteListResponse = Static<typeof InviteListResponse>;
export const InviteRevokeRequest = Type.Object({ id: Uuid }, { additionalProperties: false });
export const InviteRevokeResponse = Type.Object({ revoked: Type.Literal(true), id: Uuid });
export const JoinRequest = Type.Object(
  { invite_token: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export type JoinRequest = Static<typeof JoinRequest>;

export const MemberEntry = Type.Object({
  user_id: Uuid,
  display_name: Nullable(Type.String()),
  role: TeamRole,
  joined_at: DateTime,
  email: Type.Optional(Nullable(Type.String({ description: 'Owners and admins only.' }))),
  last_upload_at: Type.Optional(Nullable(DateTime)),
});
export type MemberEntry = Static<typeof MemberEntry>;
export const MemberListResponse = Type.Object({ team_id: Uuid, role: TeamRole, members: Type.Array(MemberEntry) });
export type MemberListResponse = Static<typeof MemberListResponse>;
export const MemberUpdateRequest = Type.Object(
  { team_id: Uuid, user_id: Uuid, role: TeamRole },
  { additionalProperties: false },
);
export type MemberUpdateRequest = Static<typeof MemberUpdateRequest>;
export const MemberUpdateResponse = Type.Object({ team_id: Uuid, user_id: Uuid, role: TeamRole });
export const MemberRemoveRequest = Type.Object({ team_id: Uuid, user_id: Uuid }, { additionalProperties: false });
export type MemberRemoveRequest = Static<typeof MemberRemoveRequest>;
export const MemberRemoveResponse = Type.Object({ removed: Type.Literal(true), team_id: Uuid, user_id: Uuid });

export const TeamLeaderboardQuery = Type.Object({
  team_id: Uuid,
  period: Type.Union([Type.Literal('week'), Type.Literal('month'), Type.Literal('total')]),
  metric: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('gpt'), Type.Literal('claude'), Type.Literal('other')], {
      default: 'all',
    }),
  ),
});
export type TeamLeaderboardQuery = Static<typeof TeamLeaderboardQuery>;
export const TeamLeaderboardResponse = Type.Object({ ...LeaderboardResponse.properties, team_id: Uuid });
export type TeamLeaderboardResponse = Static<typeof TeamLeaderboardResponse>;

const usageParams = SummaryQuery.properties;
export const TEAM_GROUPS = ['day', 'member', 'model', 'source', 'project'] as const;
export type TeamGroup = (typeof TEAM_GROUPS)[number];
export const TeamUsageQuery = Type.Object({
  team_id: Uuid,
  tz_offset_minutes: usageParams.tz_offset_minutes,
  tz: usageParams.tz,
  to: usageParams.to,
  from: usageParams.from,
  group_by: Type.Optional(
    Type.Union(
      TEAM_GROUPS.map((g) => Type.Literal(g)),
      { default: 'day', description: 'member, and user_id, for owners and admins only' },
    ),
  ),
  user_id: Type.Optional(Type.String({ format: 'uuid', description: "One member's usage (owners and admins only)" })),
  source: Type.Optional(Type.String({ maxLength: 64, description: 'only this source (not with group_by=project)' })),
  model: Type.Optional(
    Type.String({ maxLength: 128, description: 'only this model: raw name or model_id (not with group_by=project)' }),
  ),
});
export type TeamUsageQuery = Static<typeof TeamUsageQuery>;
const RowTotals = Type.Object(
  { ...TokenCountsWithCost.properties, total_cost_usd: Type.Optional(Type.String()) },
  { additionalProperties: true, description: 'project rows are all-time counts without a cost' },
);
export const TeamUsageRow = Type.Object({
  key: Type.String(),
  label: Type.Optional(Type.String()),
  totals: RowTotals,
  last_upload_at: Type.Optional(Nullable(DateTime)),
});
export type TeamUsageRow = Static<typeof TeamUsageRow>;
export const TeamUsageResponse = Type.Object({
  team_id: Uuid,
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  tz: Type.String(),
  group_by: Type.String(),
  user_id: Type.Optional(Uuid),
  source: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  all_time: Type.Optional(Type.Boolean({ description: 'project rows: all-time counts (projects are kept all-time)' })),
  totals: TokenCountsWithCost,
  rows: Type.Array(TeamUsageRow),
});
export type TeamUsageResponse = Static<typeof TeamUsageResponse>;
