/** @fileoverview Public profiles: /u/<user_id> (a public leaderboard user) and /share#<token> (a share link). */
import { call } from '../api.js';
import { Avatar, Card, ErrorNote, Skeleton } from '../components/common.js';
import { exactCount, humanCount, humanDate } from '../lib/format.js';
import { Link, useLocation } from '../router.js';
import { useLoad } from '../use-api.js';
import { useSession } from '../auth.js';
import { METRICS, PERIODS, type Entry } from './leaderboard.js';

interface ProfileAnswer {
  period: string;
  from: string;
  to: string;
  entry: Entry;
}

function ProfileView({
  userId,
  fallbackName,
  fallbackAvatar,
}: {
  userId: string;
  fallbackName?: string | null;
  fallbackAvatar?: string | null;
}) {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const answers = useLoad(`${userId}|${signedIn}`, (signal) =>
    Promise.all(
      PERIODS.map(([p]) =>
        call<ProfileAnswer>('svc-leaderboard-profile', {
          params: { user_id: userId, period: p },
          signal,
          ...(signedIn ? {} : { bearer: null }),
        }),
      ),
    ),
  );
  if (answers.error)
    return (
      <ErrorNote
        message={
          answers.error === 'Authenticated credential lacks the required role'
            ? 'This profile is not public.'
            : answers.error
        }
        retry={answers.retry}
      />
    );
  if (!answers.data) return <Skeleton height={240} />;
  const first = answers.data[0]?.entry;
  const name = first?.display_name ?? fallbackName ?? 'Anonymous';
  return (
    <>
      <div className="profile-head">
        <Avatar url={first?.avatar_url ?? fallbackAvatar} name={name} size={72} />
        <div>
          <h1>{name}</h1>
          <p className="muted">Billable tokens burned by AI coding agents, as ranked on the leaderboard (UTC).</p>
        </div>
      </div>
      <div className="profile-grid">
        {answers.data.map((a, i) => (
          <Card key={a.period} title={PERIODS[i]?.[1]}>
            <div className="profile-rank">
              <span className="rank-big" data-testid={`rank-${a.period}`}>
                {a.entry.rank === null ? '—' : `#${a.entry.rank}`}
              </span>
              <span className="muted small">
                {a.to.startsWith('9999') ? 'since the start' : `${humanDate(a.from)} – ${humanDate(a.to)}`}
              </span>
            </div>
            <dl className="metric-list">
              {METRICS.map(([m, label, field]) => (
                <div key={m}>
                  <dt>{label}</dt>
                  <dd title={exactCount(String(a.entry[field as keyof Entry]))}>
                    {humanCount(String(a.entry[field as keyof Entry]))}
                  </dd>
                </div>
              ))}
            </dl>
          </Card>
        ))}
      </div>
      <p>
        <Link href="/leaderboard">See the leaderboard</Link>
      </p>
    </>
  );
}

export function PublicProfile({ userId }: { userId: string }) {
  return (
    <div className="page">
      <ProfileView userId={userId} />
    </div>
  );
}

export function SharePage() {
  const { hash } = useLocation();
  const token = decodeURIComponent(hash);
  const shared = useLoad(token ? `share|${token}` : null, (signal) =>
    call<{ display_name: string | null; avatar_url: string | null; user_id: string }>('svc-public-view-profile', {
      bearer: token,
      signal,
    }),
  );
  return (
    <div className="page">
      {!token && <ErrorNote message="This share link is incomplete: the part after # is missing." />}
      {shared.error && (
        <ErrorNote
          message={
            /invalid|revoked|bearer/i.test(shared.error)
              ? 'This share link is no longer valid: its owner turned sharing off.'
              : shared.error
          }
          retry={shared.retry}
        />
      )}
      {token && !shared.data && !shared.error && <Skeleton height={240} />}
      {shared.data && (
        <ProfileView
          userId={shared.data.user_id}
          fallbackName={shared.data.display_name}
          fallbackAvatar={shared.data.avatar_url}
        />
      )}
    </div>
  );
}
