/**
 * @fileoverview getProfileSettings, setProfileSettings (user JWT) and getPublicProfilePage
 * (anonymous or user JWT): the public profile page at `/u/<handle|user_id>` (docs/sharing.md).
 */
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { responses } from '../schemas/common.js';
import {
  ProfileSettingsRequest,
  ProfileSettingsResponse,
  PublicProfilePageResponse,
  PublicProfileQuery,
} from '../schemas/profile.js';
import type { ProfilePageService, ProfileSettings } from '../services/profile-page.js';
import { operation } from './operation.js';

function settingsWire(userId: string, s: ProfileSettings): ProfileSettingsResponse {
  return { handle: s.handle, fields: s.fields, profile_path: `/u/${s.handle ?? userId}` };
}

export function registerProfileRoutes(app: App, deps: { profiles: ProfilePageService }): void {
  const { profiles } = deps;

  app.get(
    '/functions/svc-profile-settings',
    operation(
      {
        operationId: 'getProfileSettings',
        summary: "Read the public profile page's handle and which of its fields are public",
        tags: ['sharing'],
        access: { roles: ['user'] },
      },
      { response: responses(ProfileSettingsResponse, 401, 403) },
    ),
    async (request) => {
      const userId = principalOf(request, 'user').userId;
      return settingsWire(userId, await profiles.settings(userId));
    },
  );

  app.post(
    '/functions/svc-profile-settings',
    operation(
      {
        operationId: 'setProfileSettings',
        summary: 'Set or clear the handle (/u/<handle>) and switch fields of the public profile page',
        description:
          'Fields left out stay as they are. A handle is 3–30 lowercase letters, digits and single hyphens, compared without case; a reserved word → 400, a handle of another user → 409.',
        tags: ['sharing'],
        access: { roles: ['user'] },
      },
      { body: ProfileSettingsRequest, response: responses(ProfileSettingsResponse, 400, 401, 403, 409, 415) },
    ),
    async (request) => {
      const userId = principalOf(request, 'user').userId;
      return settingsWire(userId, await profiles.saveSettings(userId, request.body));
    },
  );

  app.get(
    '/functions/svc-public-profile',
    operation(
      {
        operationId: 'getPublicProfilePage',
        summary: 'Read the public profile page of a handle or user id: only the fields its owner made public',
        description:
          'Figures cover the last 52 weeks in UTC. A user who is not public (or none by that name) → 403; the owner always reads their own page.',
        tags: ['sharing'],
        access: { roles: ['user'], anonymous: true },
      },
      { querystring: PublicProfileQuery, response: responses(PublicProfilePageResponse, 400, 401, 403) },
    ),
    async (request) => {
      const principal = request.principal;
      return profiles.page(request.query.user, principal.role === 'user' ? principal.userId : undefined);
    },
  );
}
