/**
 * @fileoverview The team operations (docs/teams.md): create, list, update and delete teams; invite
 * links (create, list, revoke, join); members (list, change a role, remove or leave). User JWT
 * only; each route is its schema and a call into the team services.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import type { TeamInvite } from '../db/queries/teams-invites.js';
import { responses } from '../schemas/common.js';
import {
  InviteCreateRequest,
  InviteCreateResponse,
  InviteListResponse,
  InviteRevokeRequest,
  InviteRevokeResponse,
  JoinRequest,
  MemberListResponse,
  MemberRemoveRequest,
  MemberRemoveResponse,
  MemberUpdateRequest,
  MemberUpdateResponse,
  Team,
  TeamCreateRequest,
  TeamDeleteResponse,
  TeamIdQuery,
  TeamIdRequest,
  TeamListResponse,
  TeamUpdateRequest,
  type InviteEntry,
} from '../schemas/teams.js';
import { inviteState, type TeamInviteService } from '../services/teams-invites.js';
import type { TeamService, TeamWithRole } from '../services/teams.js';
import type { Clock } from '../clock.js';
import { operation } from './operation.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const teamWire = (t: TeamWithRole) => ({ id: t.id, name: t.name, slug: t.slug, role: t.role });

function inviteWire(i: TeamInvite, now: number): InviteEntry {
  return {
    id: i.id,
    role: i.role,
    email: i.email,
    max_uses: i.maxUses,
    uses: i.uses,
    created_at: new Date(i.createdAt).toISOString(),
    expires_at: new Date(i.expiresAt).toISOString(),
    revoked_at: iso(i.revokedAt),
    state: inviteState(i, now),
  };
}

/** The answers of a team operation: outsiders 404, a role too low 403, the last-owner rule 409. */
const answers = (ok: TSchema) => responses(ok, 400, 401, 403, 404, 409, 415);

/** Route options of a team operation: user JWT only. */
function op<S extends FastifySchema>(operationId: string, summary: string, schema: S, description?: string) {
  return operation(
    { operationId, summary, tags: ['teams'], access: { roles: ['user'] }, ...(description ? { description } : {}) },
    schema,
  );
}

export function registerTeamRoutes(
  app: App,
  deps: { teams: TeamService; invites: TeamInviteService; clock: Clock },
): void {
  const { teams, invites, clock } = deps;
  const me = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'user').userId;

  app.post(
    '/functions/svc-team-create',
    op('createTeam', 'Create a team (you are its owner)', { body: TeamCreateRequest, response: answers(Team) }),
    async (request) => teamWire(await teams.create(me(request), request.body.name)),
  );
  app.get(
    '/functions/svc-teams',
    op('listTeams', 'The teams you are in, with your role', { response: answers(TeamListResponse) }),
    async (request) => ({
      teams: (await teams.list(me(request))).map((t) => ({
        ...teamWire(t),
        members: t.members,
        created_at: new Date(t.createdAt).toISOString(),
      })),
    }),
  );
  app.post(
    '/functions/svc-team-update',
    op('updateTeam', 'Rename a team (owners and admins; the slug stays)', {
      body: TeamUpdateRequest,
      response: answers(Team),
    }),
    async (request) => teamWire(await teams.update(request.body.team_id, me(request), request.body.name)),
  );
  app.post(
    '/functions/svc-team-delete',
    op('deleteTeam', 'Delete a team with its memberships and invites (owners)', {
      body: TeamIdRequest,
      response: answers(TeamDeleteResponse),
    }),
    async (request) => {
      await teams.delete(request.body.team_id, me(request));
      return { deleted: true as const, team_id: request.body.team_id };
    },
  );

  app.post(
    '/functions/svc-team-invite-create',
    op(
      'createTeamInvite',
      'Create an invite link (owners and admins)',
      { body: InviteCreateRequest, response: answers(InviteCreateResponse) },
      'Role (default member; owner only by an owner), expiry (default 168 hours), uses (default 1), optionally one e-mail address, mailed the link when SMTP is configured. The token is answered this once.',
    ),
    async (request) => {
      const created = await invites.create(me(request), request.body);
      return {
        id: created.id,
        invite_token: created.token,
        url: created.url,
        expires_at: new Date(created.expiresAt).toISOString(),
        emailed: created.emailed,
      };
    },
  );
  app.get(
    '/functions/svc-team-invites',
    op('listTeamInvites', "A team's invites (owners and admins)", {
      querystring: TeamIdQuery,
      response: answers(InviteListResponse),
    }),
    async (request) => {
      const list = await invites.list(me(request), request.query.team_id);
      const now = clock.now();
      return { team_id: request.query.team_id, invites: list.map((i) => inviteWire(i, now)) };
    },
  );
  app.post(
    '/functions/svc-team-invite-revoke',
    op('revokeTeamInvite', 'Revoke an invite link (owners and admins)', {
      body: InviteRevokeRequest,
      response: answers(InviteRevokeResponse),
    }),
    async (request) => {
      await invites.revoke(me(request), request.body.id);
      return { revoked: true as const, id: request.body.id };
    },
  );
  app.post(
    '/functions/svc-team-join',
    op(
      'joinTeam',
      'Join a team with an invite link',
      { body: JoinRequest, response: answers(Team) },
      'Answers the team with your role; a member already keeps their role. 404 for a link expired, used up, revoked or unknown; 403 for an invite made out to another e-mail address.',
    ),
    async (request) => teamWire(await invites.join(me(request), request.body.invite_token)),
  );

  app.get(
    '/functions/svc-team-members',
    op('listTeamMembers', "A team's members (e-mail addresses and last uploads for owners and admins)", {
      querystring: TeamIdQuery,
      response: answers(MemberListResponse),
    }),
    async (request) => {
      const { role, members } = await teams.members(request.query.team_id, me(request));
      const full = role !== 'member';
      return {
        team_id: request.query.team_id,
        role,
        members: members.map((m) => ({
          user_id: m.userId,
          display_name: m.displayName,
          role: m.role,
          joined_at: new Date(m.joinedAt).toISOString(),
          ...(full ? { email: m.email, last_upload_at: iso(m.lastSyncAt) } : {}),
        })),
      };
    },
  );
  app.post(
    '/functions/svc-team-member-update',
    op('updateTeamMember', "Change a member's role (owners and admins; the owner role by owners)", {
      body: MemberUpdateRequest,
      response: answers(MemberUpdateResponse),
    }),
    async (request) => {
      const { team_id, user_id, role } = request.body;
      await teams.setRole(team_id, me(request), user_id, role);
      return { team_id, user_id, role };
    },
  );
  app.post(
    '/functions/svc-team-member-remove',
    op(
      'removeTeamMember',
      'Remove a member, or leave (your own user_id)',
      { body: MemberRemoveRequest, response: answers(MemberRemoveResponse) },
      'Admins remove members, owners anyone; anyone may leave, except the last owner (409: hand the team over or delete it).',
    ),
    async (request) => {
      const { team_id, user_id } = request.body;
      await teams.remove(team_id, me(request), user_id);
      return { removed: true as const, team_id, user_id };
    },
  );
}
