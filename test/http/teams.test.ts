/**
 * Teams (docs/teams.md): create, list, rename, delete; invites (expiry, uses, revoke, e-mail
 * address, the mail when SMTP is configured); the role rules (outsiders 404, members 403, the last
 * owner); leaving stops access at once; a deleted account's teams are handed over. One app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { decoded, startSmtp, type TestSmtp } from '../helpers/smtp.js';

interface Team {
  id: string;
  name: string;
  slug: string;
  role: string;
}

describe(`teams (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let owner: TestUser, admin: TestUser, member: TestUser, outsider: TestUser;
  let team: Team;

  const post = (user: TestUser, op: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/functions/svc-${op}`, headers: bearer(user.accessToken), payload });
  const get = (user: TestUser, op: string, query: string) =>
    t.app.inject({ method: 'GET', url: `/functions/svc-${op}?${query}`, headers: bearer(user.accessToken) });
  const ok = async <T>(res: Promise<{ statusCode: number; body: string; json: <U>() => U }>): Promise<T> => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(200);
    return r.json<T>();
  };
  const invite = (by: TestUser, extra: Record<string, unknown> = {}) =>
    ok<{ id: string; invite_token: string; url: string; expires_at: string; emailed: boolean }>(
      post(by, 'team-invite-create', { team_id: team.id, ...extra }),
    );
  const reads = (teamId: string): [string, string][] => [
    ['team-members', `team_id=${teamId}`],
    ['team-usage', `team_id=${teamId}`],
    ['team-leaderboard', `team_id=${teamId}&period=total`],
    ['team-invites', `team_id=${teamId}`],
  ];

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Tokentally <tt@example.com>' } });
    [owner, admin, member, outsider] = await Promise.all([signUp(t), signUp(t), signUp(t), signUp(t)]);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('creates a team with a slug, lists it with the role, and hides it from outsiders (404)', async () => {
    team = await ok<Team>(post(owner, 'team-create', { name: '  Platform Team!  ' }));
    expect(team).toMatchObject({ name: 'Platform Team!', slug: 'platform-team', role: 'owner' });
    const twin = await ok<Team>(post(outsider, 'team-create', { name: 'Platform team' }));
    expect(twin.slug).toMatch(/^platform-team-[0-9a-f]{6}$/);
    expect((await post(owner, 'team-create', { name: '   ' })).statusCode).toBe(400);
    const mine = await ok<{ teams: (Team & { members: number })[] }>(get(owner, 'teams', ''));
    expect(mine.teams).toEqual([expect.objectContaining({ id: team.id, role: 'owner', members: 1 })]);
    for (const [op, query] of reads(team.id)) expect((await get(outsider, op, query)).statusCode, op).toBe(404);
    expect((await post(outsider, 'team-update', { team_id: team.id, name: 'x' })).statusCode).toBe(404);
    expect((await post(outsider, 'team-delete', { team_id: team.id })).statusCode).toBe(404);
    expect((await post(outsider, 'team-invite-create', { team_id: team.id })).statusCode).toBe(404);
    expect((await post(owner, 'team-delete', { team_id: twin.id })).statusCode).toBe(404);
  });

  it('joins by invite links: roles, expiry, uses, revoke, e-mail address, and the invite mail', async () => {
    const forAdmin = await invite(owner, { role: 'admin', email: admin.email.toUpperCase() });
    expect(forAdmin.url).toBe(`${t.config.publicUrl.replace(/\/$/, '')}/join#${forAdmin.invite_token}`);
    expect(forAdmin.emailed).toBe(true);
    await t.teamInvites.idle();
    const mail = smtp.received.find((m) => m.to.includes(admin.email.toLowerCase()));
    expect(decoded(mail?.raw ?? '')).toContain(forAdmin.invite_token);
    expect(decoded(mail?.raw ?? '')).toContain('whole history');
    // Made out to another address: refused (403), the invite unused.
    expect((await post(member, 'team-join', { invite_token: forAdmin.invite_token })).statusCode).toBe(403);
    expect(await ok<Team>(post(admin, 'team-join', { invite_token: forAdmin.invite_token }))).toMatchObject({
      id: team.id,
      role: 'admin',
    });
    // Admins invite, but not owners.
    expect((await post(admin, 'team-invite-create', { team_id: team.id, role: 'owner' })).statusCode).toBe(403);
    const once = await invite(admin, { max_uses: 1 });
    expect((await ok<Team>(post(member, 'team-join', { invite_token: once.invite_token }))).role).toBe('member');
    // Joining again keeps the role; the used-up link refuses anyone else.
    expect((await ok<Team>(post(member, 'team-join', { invite_token: once.invite_token }))).role).toBe('member');
    expect((await post(outsider, 'team-join', { invite_token: once.invite_token })).statusCode).toBe(404);
    const short = await invite(owner, { expires_in_hours: 1, max_uses: 5 });
    const revoked = await invite(owner, { max_uses: 5 });
    await ok(post(admin, 'team-invite-revoke', { id: revoked.id }));
    // An hour on, the short link has expired (a fresh sign-in: access tokens live an hour too).
    t.clock.advance(3_600_000);
    const later = await signIn(t, outsider.email);
    expect((await post(later, 'team-join', { invite_token: short.invite_token })).statusCode).toBe(404);
    expect((await post(later, 'team-join', { invite_token: revoked.invite_token })).statusCode).toBe(404);
    expect((await post(later, 'team-join', { invite_token: 'tt_team_nonsense' })).statusCode).toBe(404);
    const listed = await ok<{ invites: { id: string; state: string; uses: number }[] }>(
      get(await signIn(t, admin.email), 'team-invites', `team_id=${team.id}`),
    );
    t.clock.advance(-3_600_000);
    const state = (id: string) => listed.invites.find((i) => i.id === id)?.state;
    expect([state(forAdmin.id), state(once.id), state(short.id), state(revoked.id)]).toEqual([
      'used_up',
      'used_up',
      'expired',
      'revoked',
    ]);
    expect((await post(outsider, 'team-invite-revoke', { id: once.id })).statusCode).toBe(404);
    expect((await post(member, 'team-invite-revoke', { id: once.id })).statusCode).toBe(403);
  });

  it('gives members the team totals and leaderboard, and owners and admins the rest (403 for members)', async () => {
    for (const [op, query] of [
      ['team-usage', `team_id=${team.id}&group_by=day`],
      ['team-usage', `team_id=${team.id}&group_by=model`],
      ['team-usage', `team_id=${team.id}&group_by=source`],
      ['team-usage', `team_id=${team.id}&group_by=project`],
      ['team-leaderboard', `team_id=${team.id}&period=week&metric=claude`],
    ] as const)
      expect((await get(member, op, query)).statusCode, query).toBe(200);
    expect((await get(member, 'team-usage', `team_id=${team.id}&group_by=member`)).statusCode).toBe(403);
    expect((await get(member, 'team-usage', `team_id=${team.id}&user_id=${owner.id}`)).statusCode).toBe(403);
    expect((await get(member, 'team-invites', `team_id=${team.id}`)).statusCode).toBe(403);
    expect((await post(member, 'team-invite-create', { team_id: team.id })).statusCode).toBe(403);
    expect((await post(member, 'team-update', { team_id: team.id, name: 'Mine' })).statusCode).toBe(403);
    expect((await post(admin, 'team-delete', { team_id: team.id })).statusCode).toBe(403);
    const seen = await ok<{ members: Record<string, unknown>[] }>(get(member, 'team-members', `team_id=${team.id}`));
    expect(seen.members.map((m) => m.role)).toEqual(['owner', 'admin', 'member']);
    expect(seen.members.every((m) => !('email' in m))).toBe(true);
    const full = await ok<{ members: Record<string, unknown>[] }>(get(admin, 'team-members', `team_id=${team.id}`));
    expect(full.members[0]).toMatchObject({ email: owner.email, last_upload_at: null });
    expect(await ok(get(admin, 'team-usage', `team_id=${team.id}&group_by=member`))).toMatchObject({
      rows: expect.arrayContaining([expect.objectContaining({ key: member.id })]),
    });
    expect((await get(admin, 'team-usage', `team_id=${team.id}&user_id=${outsider.id}`)).statusCode).toBe(404);
    const board = await ok<{ entries: { user_id: string }[]; me: { user_id: string } }>(
      get(member, 'team-leaderboard', `team_id=${team.id}&period=month`),
    );
    expect(board.entries.map((e) => e.user_id).sort()).toEqual([owner.id, admin.id, member.id].sort());
    expect(board.me.user_id).toBe(member.id);
    expect((await ok<Team>(post(admin, 'team-update', { team_id: team.id, name: 'Platform' }))).slug).toBe(
      'platform-team',
    );
  });

  it('changes roles under the owner rules and keeps the last owner', async () => {
    const setRole = (by: TestUser, who: TestUser, role: string) =>
      post(by, 'team-member-update', { team_id: team.id, user_id: who.id, role });
    expect((await setRole(member, member, 'admin')).statusCode).toBe(403);
    expect((await setRole(admin, member, 'owner')).statusCode).toBe(403);
    expect((await setRole(admin, owner, 'member')).statusCode).toBe(403);
    expect((await setRole(owner, owner, 'admin')).statusCode).toBe(409);
    expect((await setRole(owner, outsider, 'admin')).statusCode).toBe(404);
    expect((await post(owner, 'team-member-remove', { team_id: team.id, user_id: owner.id })).statusCode).toBe(409);
    expect((await post(member, 'team-member-remove', { team_id: team.id, user_id: admin.id })).statusCode).toBe(403);
    expect((await post(admin, 'team-member-remove', { team_id: team.id, user_id: owner.id })).statusCode).toBe(403);
    await ok(setRole(admin, member, 'admin'));
    await ok(setRole(owner, member, 'member'));
    // Handing over: a second owner, then the first may step down and leave.
    await ok(setRole(owner, admin, 'owner'));
    await ok(setRole(owner, owner, 'admin'));
    await ok(post(owner, 'team-member-remove', { team_id: team.id, user_id: owner.id }));
    for (const [op, query] of reads(team.id)) expect((await get(owner, op, query)).statusCode, op).toBe(404);
    const back = await invite(admin, { role: 'owner' });
    await ok(post(owner, 'team-join', { invite_token: back.invite_token }));
  });

  it('stops a member who leaves or is removed at once', async () => {
    expect((await get(member, 'team-usage', `team_id=${team.id}`)).statusCode).toBe(200);
    await ok(post(member, 'team-member-remove', { team_id: team.id, user_id: member.id }));
    for (const [op, query] of reads(team.id)) expect((await get(member, op, query)).statusCode, op).toBe(404);
    const again = await invite(owner);
    await ok(post(member, 'team-join', { invite_token: again.invite_token }));
    await ok(post(admin, 'team-member-remove', { team_id: team.id, user_id: member.id }));
    expect((await get(member, 'team-leaderboard', `team_id=${team.id}&period=total`)).statusCode).toBe(404);
  });

  it("hands a deleted account's last ownership to the longest-standing admin, else deletes the team", async () => {
    const lone = await ok<Team>(post(outsider, 'team-create', { name: 'Solo' }));
    const shared = await ok<Team>(post(outsider, 'team-create', { name: 'Shared' }));
    const link = await ok<{ invite_token: string }>(post(outsider, 'team-invite-create', { team_id: shared.id }));
    await ok(post(member, 'team-join', { invite_token: link.invite_token }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-account-delete',
      headers: bearer(outsider.accessToken),
      payload: { password: 'correct horse' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const left = await ok<{ teams: Team[] }>(get(member, 'teams', ''));
    expect(left.teams).toEqual([expect.objectContaining({ id: shared.id, role: 'owner' })]);
    expect(await t.db.kysely.selectFrom('teams').select('id').where('id', '=', lone.id).execute()).toEqual([]);
  });

  it('deletes a team with its members and invites (owners)', async () => {
    await ok(post(owner, 'team-delete', { team_id: team.id }));
    expect((await get(admin, 'team-members', `team_id=${team.id}`)).statusCode).toBe(404);
    expect(await t.db.kysely.selectFrom('team_invites').select('id').where('team_id', '=', team.id).execute()).toEqual(
      [],
    );
  });
});
