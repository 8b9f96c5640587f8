/**
 * @fileoverview The team pages (docs/teams.md): a team switcher (and a new team), then the chosen
 * team's overview like the personal one — range, zone, totals with cost, the daily trend stacked by
 * model, source or member (team-trend.tsx), shares by member, model and source, projects, the
 * members table (owners and admins: sortable, CSV), the team leaderboard — and, for owners and admins, a member's drill-down and the management panel.
 * Team, range, zone, stacking, grouping and member live in the URL.
 */
import { useState, type FormEvent } from 'react';
import { Card, ErrorNote, Skeleton } from '../components/common.js';
import { RangePicker, ZonePicker } from '../components/range-picker.js';
import { todayIn } from '../lib/dates.js';
import { exactCount, exactUsd, humanCount, humanUsd } from '../lib/format.js';
import { isPreset, resolveRange, type Preset } from '../lib/ranges.js';
import { browserZone, usePrefs } from '../prefs.js';
import { navigate, setQuery, useLocation, useViewTime } from '../router.js';
import { useLoad } from '../use-api.js';
import { canManage, loadTeams, loadUsage, post, type BoardEntry, type TeamEntry } from './team-data.js';
import { TeamManagement } from './team-manage.js';
import { MembersTable, SharesTable } from './team-tables.js';
import { TeamTrend } from './team-trend.js';
import { call } from '../api.js';

function NewTeam({ onCreated }: { onCreated: (team: TeamEntry) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return;
    try {
      onCreated(await post<TeamEntry>('svc-team-create', { name: name.trim() }));
      setName('');
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)}>
      <label className="field-inline">
        <span className="sr-only">New team name</span>
        <input value={name} maxLength={80} placeholder="New team name" onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" className="btn btn-small">
        Create team
      </button>
      {error && <ErrorNote message={error} />}
    </form>
  );
}

export function Teams() {
  const { query } = useLocation();
  const prefs = usePrefs();
  const browser = browserZone();
  const teams = useLoad('teams', loadTeams);
  const list = teams.data?.teams ?? [];
  const team = list.find((t) => t.id === query.get('team')) ?? list[0];
  const zone = query.get('tz') ?? prefs.zone ?? browser;
  const nowMs = useViewTime();
  const rawPreset = query.get('range');
  const preset: Preset = isPreset(rawPreset) ? rawPreset : '30d';
  const range = resolveRange(preset, todayIn(zone, nowMs), prefs.weekStart, {
    from: query.get('from'),
    to: query.get('to'),
  });
  const group = (['member', 'model', 'source'] as const).find((g) => g === query.get('by')) ?? 'model';
  const member = query.get('member');
  const stackBy = (['member', 'model', 'source'] as const).find((g) => g === query.get('stack')) ?? 'model';
  const manager = canManage(team?.role);
  const base = team
    ? { team: team.id, from: range.from, to: range.to, tz: zone, member: manager ? member : null }
    : null;
  const key = base ? `${base.team}|${base.from}|${base.to}|${zone}|${base.member}` : null;
  const days = useLoad(key && `${key}|day`, (s) => loadUsage({ ...base!, group: 'day' }, s));
  const shares = useLoad(key && `${key}|${group}`, (s) =>
    loadUsage({ ...base!, group: group === 'member' && !manager ? 'model' : group }, s),
  );
  const members = useLoad(manager && key && !member ? `${key}|members` : null, (s) =>
    loadUsage({ ...base!, group: 'member' }, s),
  );
  const projects = useLoad(key && `${key}|project`, (s) => loadUsage({ ...base!, group: 'project' }, s));
  const period = query.get('period') === 'week' ? 'week' : query.get('period') === 'total' ? 'total' : 'month';
  const board = useLoad(team && !member ? `${team.id}|${period}` : null, (signal) =>
    call<{ entries: BoardEntry[] }>('svc-team-leaderboard', { signal, params: { team_id: team!.id, period } }),
  );
  const memberName = members.data?.rows.find((r) => r.key === member)?.label ?? 'Member';

  if (teams.error) return <ErrorNote message={teams.error} retry={teams.retry} />;
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>{team ? team.name : 'Teams'}</h1>
          <p className="muted">
            {team
              ? member
                ? `${memberName}'s usage over the range (their whole history is open to the team's owners and admins).`
                : `The team's usage, in your time zone. You are ${team.role === 'admin' ? 'an' : 'a'} ${team.role}.`
              : 'See a team’s usage and spend together.'}
          </p>
        </div>
        <div className="toolbar">
          {list.length > 0 && (
            <label className="field-inline">
              <span className="sr-only">Team</span>
              <select
                aria-label="Team"
                value={team?.id ?? ''}
                onChange={(e) => setQuery({ team: e.target.value, member: null }, true)}
              >
                {list.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {team && (
            <>
              <RangePicker
                preset={preset}
                range={range}
                onPreset={(p) =>
                  setQuery(
                    p === 'custom' ? { range: p, from: range.from, to: range.to } : { range: p, from: null, to: null },
                    true,
                  )
                }
                onCustom={(from, to) => setQuery({ range: 'custom', from, to }, true)}
              />
              <ZonePicker zone={zone} browser={browser} nowMs={nowMs} onZone={(z) => setQuery({ tz: z })} />
            </>
          )}
        </div>
      </div>
      <NewTeam
        onCreated={(t) => {
          teams.retry();
          navigate(`/teams?team=${t.id}`);
        }}
      />
      {teams.loading && <Skeleton height={200} />}
      {!teams.loading && !team && <p className="muted">You are in no team yet. Create one, or open an invite link.</p>}
      {team && (
        <>
          {member && (
            <p>
              <button type="button" className="link-button" onClick={() => setQuery({ member: null }, true)}>
                ← Back to the team
              </button>
            </p>
          )}
          {days.error && <ErrorNote message={days.error} retry={days.retry} />}
          {days.data ? (
            <section className="stats team-stats" aria-label="Totals">
              <div className="stat">
                <span className="stat-label">Tokens</span>
                <div className="stat-value" title={exactCount(days.data.totals.total_tokens)}>
                  {humanCount(days.data.totals.total_tokens)}
                </div>
              </div>
              <div className="stat">
                <span className="stat-label">Billable</span>
                <div className="stat-value">{humanCount(days.data.totals.billable_total_tokens)}</div>
              </div>
              <div className="stat">
                <span className="stat-label">Cost</span>
                <div className="stat-value" title={days.data.totals.total_cost_usd}>
                  {humanUsd(days.data.totals.total_cost_usd)}
                </div>
              </div>
            </section>
          ) : (
            <Skeleton height={96} />
          )}
          <TeamTrend
            base={base}
            days={days.data}
            by={stackBy}
            members={manager && !member}
            onBy={(v) => setQuery({ stack: v === 'model' ? null : v })}
          />
          <SharesTable
            loaded={shares}
            group={group}
            manager={manager && !member}
            onGroup={(g) => setQuery({ by: g === 'model' ? null : g })}
          />
          {manager && !member && (
            <MembersTable
              loaded={members}
              nowMs={nowMs}
              range={range}
              team={team.name}
              onOpen={(id) => setQuery({ member: id }, true)}
            />
          )}
          <Card id="team-projects" title="Top projects" actions={<span className="muted small">all time</span>}>
            {projects.data && projects.data.rows.length === 0 && <p className="muted">No projects yet.</p>}
            <ol className="project-list">
              {projects.data?.rows.map((p) => (
                <li key={p.key}>
                  <div className="project-row">
                    <span>{p.label ?? p.key}</span>
                    <span className="num">{humanCount(p.totals.billable_total_tokens)}</span>
                  </div>
                </li>
              ))}
            </ol>
          </Card>
          {!member && (
            <Card
              id="team-board"
              title="Leaderboard"
              actions={
                <select aria-label="Period" value={period} onChange={(e) => setQuery({ period: e.target.value })}>
                  <option value="week">This week</option>
                  <option value="month">This month</option>
                  <option value="total">All time</option>
                </select>
              }
            >
              {board.data ? (
                <ol className="board-list">
                  {board.data.entries.map((e) => (
                    <li key={e.user_id}>
                      <span className="rank">{e.rank ?? '–'}</span> <span>{e.display_name ?? 'A member'}</span>{' '}
                      <span className="num">{humanCount(e.total_tokens)}</span>{' '}
                      <span className="muted" title={exactUsd(e.total_cost_usd)}>
                        {humanUsd(e.total_cost_usd)}
                      </span>
                    </li>
                  ))}
                </ol>
              ) : (
                <Skeleton height={120} />
              )}
            </Card>
          )}
          {!member && <TeamManagement team={team} onChanged={teams.retry} />}
        </>
      )}
    </div>
  );
}
