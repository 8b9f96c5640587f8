/**
 * @fileoverview The instance admins' operations (docs/running-for-a-group.md): svc-admin-users,
 * svc-admin-user-update, svc-admin-user-delete, svc-admin-reset-link (a password reset link to hand
 * over, where the server sends no mail), svc-admin-invite-create (rate limited per caller),
 * svc-admin-invites, svc-admin-invite-revoke and svc-admin-settings (read and write). A user JWT
 * of an admin account or the service role key; any other user 403, devices and share tokens 403.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { problems } from '../http/problem.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { responses } from '../schemas/common.js';
import {
  AdminResetLinkRequest,
  AdminResetLinkResponse,
  AdminUserDeleteRequest,
  AdminUserDeleteResponse,
  AdminUsersQuery,
  AdminUsersResponse,
  AdminUserUpdateRequest,
  AdminUserUpdateResponse,
  InviteCreateRequest,
  InviteCreateResponse,
  InviteRevokeRequest,
  InviteRevokeResponse,
  InvitesResponse,
  SignupSettingsRequest,
  SignupSettingsResponse,
} from '../schemas/instance-admin.js';
import type { AdminActor, InstanceAdminService } from '../services/instance-admin.js';
import type { RecoveryService } from '../services/recovery.js';
import type { SignupPolicy } from '../services/signup-policy.js';
import { operation } from './operation.js';

const ACCESS = { roles: ['user', 'service_role'] } as const;
const TAGS = ['instance-admin'];
const WHO =
  ' A user JWT of an admin account (403 for other users) or the service role key (docs/running-for-a-group.md).';

export function registerInstanceAdminRoutes(
  app: App,
  deps: {
    admin: InstanceAdminService;
    policy: SignupPolicy;
    recovery: Pick<RecoveryService, 'createRecoveryLink'>;
    inviteLimiter: RateLimiter;
  },
): void {
  const { admin, policy, recovery, inviteLimiter } = deps;
  const requireAdmin = (request: FastifyRequest): Promise<AdminActor> => {
    const principal = request.principal;
    if (principal.role !== 'user' && principal.role !== 'service_role') throw problems.forbidden();
    return admin.requireAdmin(principal);
  };

  app.get(
    '/functions/svc-admin-users',
    operation(
      {
        operationId: 'adminListUsers',
        summary: 'List the accounts of this server (paged; search by e-mail address)',
        description:
          'Oldest first: e-mail, display name, created, last upload, live devices, tokens and cost (USD) this UTC month, admin, disabled.' +
          WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { querystring: AdminUsersQuery, response: responses(AdminUsersResponse, 400, 401, 403) },
    ),
    async (request) => {
      await requireAdmin(request);
      const { q, limit = 50, offset = 0 } = request.query;
      return admin.listUsers({ q, limit, offset });
    },
  );

  app.post(
    '/functions/svc-admin-user-update',
    operation(
      {
        operationId: 'adminUpdateUser',
        summary: 'Disable or enable an account; make or revoke an admin',
        description:
          'A disabled account cannot sign in (400 `user_banned`); its sessions end and its device and share tokens answer 401 at once, ' +
          'its data stays. A change that would leave the server without an enabled admin is 409 `last_admin`.' +
          WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { body: AdminUserUpdateRequest, response: responses(AdminUserUpdateResponse, 400, 401, 403, 404, 409, 415) },
    ),
    async (request) => {
      await requireAdmin(request);
      return admin.updateUser(request.body);
    },
  );

  app.post(
    '/functions/svc-admin-user-delete',
    operation(
      {
        operationId: 'adminDeleteUser',
        summary: 'Delete an account and everything it owns',
        description: "The same deletion as the user's own deleteAccount. The last enabled admin: 409." + WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { body: AdminUserDeleteRequest, response: responses(AdminUserDeleteResponse, 400, 401, 403, 404, 409, 415) },
    ),
    async (request) => {
      await requireAdmin(request);
      const deleted = await admin.deleteUser(request.body.user_id);
      request.log.info({ user_id: deleted.user_id }, 'account deleted by an admin');
      return deleted;
    },
  );

  app.post(
    '/functions/svc-admin-reset-link',
    operation(
      {
        operationId: 'adminCreateResetLink',
        summary: 'Make a password reset link for an account',
        description:
          'The link a recovery e-mail would carry (single use, one hour; an older one of the account stops working), for an admin ' +
          'to hand over where the server sends no mail. An account without a password (single sign-on): 422.' +
          WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { body: AdminResetLinkRequest, response: responses(AdminResetLinkResponse, 400, 401, 403, 404, 415, 422) },
    ),
    async (request) => {
      await requireAdmin(request);
      const link = await recovery.createRecoveryLink(request.body.user_id);
      request.log.info({ user_id: request.body.user_id }, 'password reset link made by an admin');
      return link;
    },
  );

  app.post(
    '/functions/svc-admin-invite-create',
    operation(
      {
        operationId: 'adminCreateInvite',
        summary: 'Create a sign-up invite',
        description:
          'Answers the invite token (shown once) and its URL, the dashboard sign-up page with the invite filled in. ' +
          'Defaults: expires in 168 hours, one use, any e-mail address. Limited per caller (RATE_LIMIT_INVITES_PER_MINUTE).' +
          WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { body: InviteCreateRequest, response: responses(InviteCreateResponse, 400, 401, 403, 415, 429) },
    ),
    async (request) => {
      const actor = await requireAdmin(request);
      const key = 'userId' in actor ? actor.userId : 'service_role';
      const decision = await inviteLimiter.take(`invites:${key}`);
      if (!decision.allowed)
        throw problems.rateLimited(decision.retryAfterSeconds, 'Too many invites created; retry later.');
      return policy.createInvite('userId' in actor ? actor.userId : null, request.body);
    },
  );

  app.get(
    '/functions/svc-admin-invites',
    operation(
      {
        operationId: 'adminListInvites',
        summary: 'List the sign-up invites, newest first (the latest 200)',
        description: 'Never the tokens: only their SHA-256 is stored.' + WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { response: responses(InvitesResponse, 401, 403) },
    ),
    async (request) => {
      await requireAdmin(request);
      return { invites: await policy.listInvites() };
    },
  );

  app.post(
    '/functions/svc-admin-invite-revoke',
    operation(
      {
        operationId: 'adminRevokeInvite',
        summary: 'Revoke a sign-up invite',
        description: 'A revoked invite answers 403 `invite_invalid` at sign-up. Unknown id: 404.' + WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { body: InviteRevokeRequest, response: responses(InviteRevokeResponse, 400, 401, 403, 404, 415) },
    ),
    async (request) => {
      await requireAdmin(request);
      return policy.revokeInvite(request.body.id);
    },
  );

  app.get(
    '/functions/svc-admin-settings',
    operation(
      {
        operationId: 'adminGetSignupSettings',
        summary: 'Read who may sign up',
        description: 'The stored settings, or until an admin saves them SIGNUP_MODE and SIGNUP_EMAIL_DOMAINS.' + WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { response: responses(SignupSettingsResponse, 401, 403) },
    ),
    async (request) => {
      await requireAdmin(request);
      return policy.settings();
    },
  );

  app.post(
    '/functions/svc-admin-settings',
    operation(
      {
        operationId: 'adminUpdateSignupSettings',
        summary: 'Change who may sign up',
        description:
          'Stored in the database: from then on they rule over SIGNUP_MODE and SIGNUP_EMAIL_DOMAINS. Fields left out keep their value.' +
          WHO,
        tags: TAGS,
        access: ACCESS,
      },
      { body: SignupSettingsRequest, response: responses(SignupSettingsResponse, 400, 401, 403, 415) },
    ),
    async (request) => {
      await requireAdmin(request);
      return policy.update(request.body);
    },
  );
}
