/**
 * @fileoverview The invite page (`/join#<token>`): says what joining shares before anything is
 * shared, then joins with one button. The token stays in the fragment (never sent to a server but
 * in the join call's body).
 */
import { useState } from 'react';
import { ErrorNote } from '../components/common.js';
import { navigate, useLocation } from '../router.js';
import { post, type TeamEntry } from './team-data.js';

export const JOINING_SHARES = [
  "The team's members see the team's totals and its leaderboard, with display names.",
  "Its owners and admins also see each member's usage by day, model, source and project, over the member's whole history.",
  'Nothing else is shared (no device names), and leaving the team stops it at once.',
];

export function JoinTeam() {
  const { hash } = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const join = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const team = await post<TeamEntry>('svc-team-join', { invite_token: hash });
      navigate(`/teams?team=${team.id}`);
    } catch (failed) {
      setError((failed as Error).message);
      setBusy(false);
    }
  };
  return (
    <div className="page narrow">
      <h1>Join a team</h1>
      {hash === '' ? (
        <p>This invite link is incomplete: open the whole link you were sent.</p>
      ) : (
        <>
          <p>You were invited to a team on this Tokentally server. Before you join, this is what joining shares:</p>
          <ul className="join-shares">
            {JOINING_SHARES.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {error && <ErrorNote message={error} />}
          <div className="toolbar">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void join()}>
              Join the team
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => navigate('/')}>
              Not now
            </button>
          </div>
        </>
      )}
    </div>
  );
}
