/**
 * @fileoverview Public profiles: /u/<handle|user_id> and /share#<token> (a share link). Shows only
 * what the owner made public (getPublicProfilePage answers nothing else): a year's heatmap,
 * totals with cost, streaks, ranks, top models and tools.
 */
import { call, type Answer } from '../api.js';
import { Avatar, Card, ErrorNote, Skeleton } from '../components/common.js';
import { HeatLegend, Heatmap } from '../components/heatmap.js';
import { exactCount, exactUsd, humanCount, humanDate, humanUsd } from '../lib/format.js';
import { Link, useLocation } from '../router.js';
import { useLoad } from '../use-api.js';
import { useSession } from '../auth.js';

export type ProfilePage = Answer<'svc-public-profile'>;

/** A row of the top lists (a model or a source of the profile). */
interface Usage {
  total_tokens: string;
  total_cost_usd?: string;
}

const RANK_WORDS: Record<string, string> = { week: 'This week', month: 'This month', total: 'All time' };
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

function Stat({ label, value, title, testId }: { label: string; value: string; title?: string; testId?: string }) {
  return (
    <div className="profile-stat">
      <dt>{label}</dt>
      <dd title={title} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function TopList({ title, rows, testId }: { title: string; rows: Array<Usage & { name: string }>; testId: string }) {
  const max = rows.reduce((m, r) => Math.max(m, Number(r.total_tokens)), 0) || 1;
  return (
    <Card title={title}>
      {rows.length === 0 ? (
        <p className="muted">Nothing in this year yet.</p>
      ) : (
        <ol className="top-list" data-testid={testId}>
          {rows.map((r) => (
            <li key={r.name}>
              <div className="top-row">
                <span className="top-name">{r.name}</span>
                <span className="top-figures" title={exactCount(r.total_tokens)}>
                  {humanCount(r.total_tokens)}
                  {r.total_cost_usd !== undefined && <span className="muted"> · {humanUsd(r.total_cost_usd)}</span>}
                </span>
              </div>
              <div className="top-bar" style={{ width: `${Math.max(2, (Number(r.total_tokens) / max) * 100)}%` }} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

export function ProfileView({ address }: { address: string }) {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const answer = useLoad(`${address}|${signedIn}`, (signal) =>
    call<ProfilePage>('svc-public-profile', {
      params: { user: address },
      signal,
      ...(signedIn ? {} : { bearer: null }),
    }),
  );
  if (answer.error)
    return (
      <ErrorNote
        message={
          /not public|lacks the required role/i.test(answer.error) ? 'This profile is not public.' : answer.error
        }
        retry={answer.retry}
      />
    );
  const p = answer.data;
  if (!p) return <Skeleton height={240} />;
  const name = p.display_name ?? p.handle ?? 'Anonymous';
  const t = p.totals;
  const stats = [
    t?.total_tokens !== undefined && (
      <Stat
        key="tokens"
        label="Tokens"
        value={humanCount(t.total_tokens)}
        title={exactCount(t.total_tokens)}
        testId="stat-tokens"
      />
    ),
    t?.total_cost_usd !== undefined && (
      <Stat
        key="cost"
        label="Cost"
        value={humanUsd(t.total_cost_usd)}
        title={exactUsd(t.total_cost_usd)}
        testId="stat-cost"
      />
    ),
    p.streaks && <Stat key="streak" label="Current streak" value={days(p.streaks.current_days)} />,
    p.streaks && <Stat key="longest" label="Longest streak" value={days(p.streaks.longest_days)} />,
    ...(p.ranks ?? []).map((r) => (
      <Stat
        key={r.period}
        label={`Rank · ${RANK_WORDS[r.period] ?? r.period}`}
        value={r.rank === null ? '—' : `#${r.rank}`}
        testId={`rank-${r.period}`}
      />
    )),
  ].filter(Boolean);
  const nothing = stats.length === 0 && !p.heatmap && !p.models && !p.sources;
  return (
    <>
      {!p.is_public && (
        <p className="note note-warn note-block" role="status">
          Only you can see this page: your profile is not public. Turn Public on in{' '}
          <Link href="/settings">Settings</Link>.
        </p>
      )}
      <div className="profile-head">
        <Avatar url={p.avatar_url} name={name} size={72} />
        <div>
          <h1>{name}</h1>
          <p className="muted">
            {p.handle && <span className="profile-handle">@{p.handle} · </span>}
            AI coding agents’ usage, {humanDate(p.from)} – {humanDate(p.to)} (UTC)
          </p>
        </div>
      </div>
      {stats.length > 0 && (
        <Card>
          <dl className="profile-stats">{stats}</dl>
        </Card>
      )}
      {p.heatmap && (
        <Card title="Activity" actions={<span className="muted small">{days(p.heatmap.active_days)} active</span>}>
          <Heatmap
            weeks={p.heatmap.weeks}
            weekStartsOn={p.heatmap.week_starts_on === 'mon' ? 'mon' : 'sun'}
            onOpen={() => undefined}
          />
          <HeatLegend />
        </Card>
      )}
      {(p.models || p.sources) && (
        <div className="profile-grid profile-tops">
          {p.models && (
            <TopList title="Top models" rows={p.models.map((m) => ({ ...m, name: m.model }))} testId="top-models" />
          )}
          {p.sources && (
            <TopList title="Top tools" rows={p.sources.map((s) => ({ ...s, name: s.source }))} testId="top-sources" />
          )}
        </div>
      )}
      {nothing && <p className="muted">{name} shares no figures on this page.</p>}
      <p>
        <Link href="/leaderboard">See the leaderboard</Link>
      </p>
    </>
  );
}

export function PublicProfile({ userId }: { userId: string }) {
  return (
    <div className="page profile-page">
      <ProfileView address={userId} />
    </div>
  );
}

export function SharePage() {
  const { hash } = useLocation();
  const token = decodeURIComponent(hash);
  const shared = useLoad(token ? `share|${token}` : null, (signal) =>
    call<Answer<'svc-public-view-profile'>>('svc-public-view-profile', {
      bearer: token,
      signal,
    }),
  );
  return (
    <div className="page profile-page">
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
      {shared.data && <ProfileView address={shared.data.user_id} />}
    </div>
  );
}
