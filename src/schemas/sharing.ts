/** @fileoverview Public sharing: getPublicVisibility, setPublicVisibility, getPublicViewProfile. */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

export const PublicVisibilityRequest = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type PublicVisibilityRequest = Static<typeof PublicVisibilityRequest>;

export const PublicVisibilityResponse = Type.Object({
  enabled: Type.Boolean(),
  updated_at: Type.Optional(DateTime),
  share_token: Type.Optional(
    Type.String({ description: 'tt_share_… bearer for getPublicViewProfile; present while enabled.' }),
  ),
});
export type PublicVisibilityResponse = Static<typeof PublicVisibilityResponse>;

export const PublicProfileResponse = Type.Object({
  display_name: Type.Union([Type.String(), Type.Null()]),
  avatar_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
  user_id: Uuid,
});
export type PublicProfileResponse = Static<typeof PublicProfileResponse>;
