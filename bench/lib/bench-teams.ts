/**
 * @fileoverview bench:ingest's BENCH_TEAMS (default 0): the uploading accounts dealt round-robin
 * into that many teams before the load (each in one team; the first of each creates it, the others
 * join by invite), so the uploads also keep the team-side read model (migration 0029;
 * docs/teams.md, "Storage") and the run measures what that costs them.
 */
export const BENCH_TEAMS = Number(process.env.BENCH_TEAMS ?? 0);

async function post<T>(url: string, body: unknown, bearer: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Puts `uploaders` (their access tokens) into `teams` teams, round-robin. */
export async function formTeams(base: string, uploaders: readonly string[], teams = BENCH_TEAMS): Promise<void> {
  const invites: string[] = [];
  for (const [i, session] of uploaders.entries()) {
    const t = i % teams;
    if (i < teams) {
      const team = await post<{ id: string }>(`${base}/functions/svc-team-create`, { name: `Bench ${t}` }, session);
      const link = await post<{ invite_token: string }>(
        `${base}/functions/svc-team-invite-create`,
        { team_id: team.id, max_uses: 1000 },
        session,
      );
      invites.push(link.invite_token);
    } else {
      await post(`${base}/functions/svc-team-join`, { invite_token: invites[t] }, session);
    }
  }
}
