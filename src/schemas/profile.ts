/**
 * @fileoverview Public profile pages (docs/sharing.md, "The public profile"): getProfileSettings,
 * setProfileSettings (user JWT) and getPublicProfilePage (anyone).
 */
import { Type, type Static } from '@sinclair/typebox';
import { HANDLE_MAX } from '../domain/public-profile.js';
import { Uuid } from './common.js';

const open = { additionalProperties: true };
const Flag = Type.Boolean();

export const ProfileFieldsSchema = Type.Object(
  {
    heatmap: Flag,
    totals: Flag,
    cost: Flag,
    models: Flag,
    sources: Flag,
    streaks: Flag,
    ranks: Flag,
  },
  { description: 'which parts of the profile page anyone may see' },
);

export const ProfileSettingsRequest = Type.Object(
  {
    handle: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description: `the page's address /u/<handle>: ${HANDLE_MAX} characters at most, lowercase letters, digits, hyphens; null or "" clears it`,
      }),
    ),
    fields: Type.Optional(Type.Partial(ProfileFieldsSchema, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type ProfileSettingsRequest = Static<typeof ProfileSettingsRequest>;

export const ProfileSettingsResponse = Type.Object({
  handle: Type.Union([Type.String(), Type.Null()]),
  fields: ProfileFieldsSchema,
  profile_path: Type.String({ description: '/u/<handle>, or /u/<user_id> without a handle' }),
});
export type ProfileSettingsResponse = Static<typeof ProfileSettingsResponse>;

export const PublicProfileQuery = Type.Object({
  user: Type.String({ minLength: 1, maxLength: 64, description: 'a handle or a user id' }),
});
export type PublicProfileQuery = Static<typeof PublicProfileQuery>;

const Count = Type.String({ description: 'decimal integer' });
const Usd = Type.String({ description: 'USD with six decimals' });
const Usage = (name: string) =>
  Type.Object({ [name]: Type.String(), total_tokens: Count, total_cost_usd: Type.Optional(Usd) }, open);

export const PublicProfilePageResponse = Type.Object(
  {
    user_id: Uuid,
    handle: Type.Union([Type.String(), Type.Null()]),
    display_name: Type.Union([Type.String(), Type.Null()]),
    avatar_url: Type.Union([Type.String(), Type.Null()]),
    is_public: Type.Boolean({ description: 'false only when the owner reads their own private page' }),
    fields: ProfileFieldsSchema,
    from: Type.String({ description: 'first day (UTC) of the year the figures cover' }),
    to: Type.String({ description: 'last day (UTC), today' }),
    heatmap: Type.Optional(
      Type.Object(
        {
          week_starts_on: Type.String(),
          active_days: Type.Integer(),
          weeks: Type.Array(
            Type.Array(
              Type.Union([Type.Object({ day: Type.String(), value: Count, level: Type.Integer() }, open), Type.Null()]),
            ),
          ),
        },
        open,
      ),
    ),
    streaks: Type.Optional(Type.Object({ current_days: Type.Integer(), longest_days: Type.Integer() }, open)),
    totals: Type.Optional(
      Type.Object(
        {
          total_tokens: Type.Optional(Count),
          billable_total_tokens: Type.Optional(Count),
          input_tokens: Type.Optional(Count),
          output_tokens: Type.Optional(Count),
          total_cost_usd: Type.Optional(Usd),
        },
        open,
      ),
    ),
    models: Type.Optional(Type.Array(Usage('model'))),
    sources: Type.Optional(Type.Array(Usage('source'))),
    ranks: Type.Optional(
      Type.Array(
        Type.Object(
          {
            period: Type.String(),
            rank: Type.Union([Type.Integer(), Type.Null()]),
            from: Type.String(),
            to: Type.String(),
          },
          open,
        ),
      ),
    ),
  },
  open,
);
export type PublicProfilePageResponse = Static<typeof PublicProfilePageResponse>;
