/** @fileoverview getPublicVisibility, setPublicVisibility (user JWT) and getPublicViewProfile (share token). */
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { responses } from '../schemas/common.js';
import { PublicProfileResponse, PublicVisibilityRequest, PublicVisibilityResponse } from '../schemas/sharing.js';
import type { SharingService, VisibilityState } from '../services/sharing.js';
import { operation } from './operation.js';

function visibilityWire(state: VisibilityState): PublicVisibilityResponse {
  return {
    enabled: state.enabled,
    ...(state.updatedAt !== undefined ? { updated_at: new Date(state.updatedAt).toISOString() } : {}),
    ...(state.shareToken !== undefined ? { share_token: state.shareToken } : {}),
  };
}

export function registerSharingRoutes(app: App, deps: { sharing: SharingService }): void {
  const { sharing } = deps;

  app.get(
    '/functions/svc-public-visibility',
    operation(
      {
        operationId: 'getPublicVisibility',
        summary: 'Read public visibility and the share token',
        tags: ['sharing'],
        access: { roles: ['user'] },
      },
      { response: responses(PublicVisibilityResponse, 401, 403) },
    ),
    async (request) => visibilityWire(await sharing.get(principalOf(request, 'user').userId)),
  );

  app.post(
    '/functions/svc-public-visibility',
    operation(
      {
        operationId: 'setPublicVisibility',
        summary: 'Turn public visibility on or off',
        description:
          'On: a share token is issued (an existing live one is kept). Off: the token is revoked at once. Re-enabling issues a new token.',
        tags: ['sharing'],
        access: { roles: ['user'] },
      },
      { body: PublicVisibilityRequest, response: responses(PublicVisibilityResponse, 400, 401, 403, 415) },
    ),
    async (request) => visibilityWire(await sharing.set(principalOf(request, 'user').userId, request.body.enabled)),
  );

  app.get(
    '/functions/svc-public-view-profile',
    operation(
      {
        operationId: 'getPublicViewProfile',
        summary: 'Read the privacy-safe public profile behind a share token',
        tags: ['sharing'],
        access: { roles: ['share'] },
      },
      { response: responses(PublicProfileResponse, 401, 403) },
    ),
    async (request): Promise<PublicProfileResponse> => {
      const profile = await sharing.publicProfile(principalOf(request, 'share').userId);
      return { display_name: profile.displayName, avatar_url: profile.avatarUrl, user_id: profile.userId };
    },
  );
}
