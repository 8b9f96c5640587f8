/**
 * @fileoverview The instance admins' operations (svc-admin-*): users, invites and the sign-up
 * settings (docs/running-for-a-group.md).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_DOMAIN_LENGTH, MAX_SIGNUP_DOMAINS, SIGNUP_MODES } from '../domain/signup-policy.js';
import { DateTime, Uuid } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const AdminUsersQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 320, description: 'part of the e-mail address' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;

export const AdminUser = Type.Object({
  id: Uuid,
  email: Nullable(Type.String()),
  display_name: Nullable(Type.String()),
  created_at: DateTime,
  last_upload_at: Nullable(DateTime),
  devices: Type.Integer({ description: 'live (not revoked) devices' }),
  tokens_this_month: Type.String({ description: 'total tokens this UTC calendar month (decimal string)' }),
  cost_this_month_usd: Type.String({ description: 'cost this UTC calendar month, USD with six decimals' }),
  admin: Type.Boolean(),
  disabled: Type.Boolean(),
});

export const AdminUsersResponse = Type.Object({
  users: Type.Array(AdminUser),
  total: Type.Integer({ description: 'users matching q' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const AdminUserUpdateRequest = Type.Object(
  { user_id: Uuid, disabled: Type.Optional(Type.Boolean()), admin: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type AdminUserUpdateRequest = Static<typeof AdminUserUpdateRequest>;

export const AdminUserUpdateResponse = Type.Object({ user_id: Uuid, admin: Type.Boolean(), disabled: Type.Boolean() });

export const AdminUserDeleteRequest = Type.Object({ user_id: Uuid }, { additionalProperties: false });
export type AdminUserDeleteRequest = Static<typeof AdminUserDeleteRequest>;
export const AdminUserDeleteResponse = Type.Object({ deleted: Type.Literal(true), user_id: Uuid });

export const AdminResetLinkRequest = Type.Object({ user_id: Uuid }, { additionalProperties: false });
export type AdminResetLinkRequest = Static<typeof AdminResetLinkRequest>;
export const AdminResetLinkResponse = Type.Object({
  url: Type.String({ description: 'the password reset link (from PUBLIC_URL), single use' }),
  expires_at: Type.String({ format: 'date-time' }),
});

export const InviteCreateRequest = Type.Object(
  {
    expires_in_hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 8760, description: 'hours until it expires (default 168: a week)' }),
    ),
    max_uses: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'sign-ups it allows (default 1)' })),
    email: Type.Optional(
      Type.String({ minLength: 3, maxLength: 254, description: 'the only e-mail address it works for' }),
    ),
  },
  { additionalProperties: false },
);
export type InviteCreateRequest = Static<typeof InviteCreateRequest>;

export const InviteCreateResponse = Type.Object({
  id: Uuid,
  invite_token: Type.String({ description: 'shown once; only its SHA-256 is stored' }),
  url: Type.String({ description: "the dashboard's sign-up page with the invite filled in" }),
  expires_at: DateTime,
});

export const Invite = Type.Object({
  id: Uuid,
  email: Nullable(Type.String()),
  max_uses: Type.Integer(),
  uses: Type.Integer(),
  created_by: Nullable(Uuid),
  created_at: DateTime,
  expires_at: DateTime,
  revoked_at: Nullable(DateTime),
  status: Type.Union([Type.Literal('live'), Type.Literal('expired'), Type.Literal('spent'), Type.Literal('revoked')]),
});
export const InvitesResponse = Type.Object({ invites: Type.Array(Invite) });

export const InviteRevokeRequest = Type.Object({ id: Uuid }, { additionalProperties: false });
export type InviteRevokeRequest = Static<typeof InviteRevokeRequest>;
export const InviteRevokeResponse = Type.Object({ id: Uuid, revoked: Type.Literal(true) });

const SignupMode = Type.Union(
  SIGNUP_MODES.map((mode) => Type.Literal(mode)),
  { description: 'open, invite or closed' },
);

export const SignupSettingsRequest = Type.Object(
  {
    signup_mode: Type.Optional(SignupMode),
    signup_email_domains: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_DOMAIN_LENGTH + 1 }), {
        maxItems: MAX_SIGNUP_DOMAINS,
        description: 'domains allowed to sign up without an invite (empty: any)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SignupSettingsRequest = Static<typeof SignupSettingsRequest>;

export const SignupSettingsResponse = Type.Object({
  signup_mode: SignupMode,
  signup_email_domains: Type.Array(Type.String()),
});
