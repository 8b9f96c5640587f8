/** @fileoverview The leaderboard: period and metric tabs, pages, the caller's row pinned and highlighted; tokens and their cost. */
import { useEffect } from 'react';
import { call, type Answer } from '../api.js';
import { Avatar, Card, ErrorNote, Skeleton } from '../components/common.js';
import { exactCount, exactUsd, humanCount, humanDate, humanUsd } from '../lib/format.js';
import { Link, setQuery, useLocation } from '../router.js';
import { useLoad } from '../use-api.js';
import { useSession } from '../auth.js';

// The answer's type is the server's (api/wire.ts, generated from /openapi.json).
type Board = Answer<'svc-leaderboard'>;
export type Entry = Board['entries'][number];

export const PERIODS = [
  ['week', 'This week'],
  ['month', 'This month'],
  ['total', 'All time'],
] as const;
/** Each metric: its value, label, and the entry's tokens and cost in it. */
export const METRICS = [
  ['all', 'All', 'total_tokens', 'total_cost_usd'],
  ['gpt', 'GPT', 'gpt_tokens', 'gpt_cost_usd'],
  ['claude', 'Claude', 'claude_tokens', 'claude_cost_usd'],
  ['other', 'Other', 'other_tokens', 'other_cost_usd'],
] as const;
const LIMIT = 20;

function Tabs({
  label,
  value,
  options,
  param,
}: {
  label: string;
  value: string;
  options: ReadonlyArray<readonly [string, string, ...string[]]>;
  param: string;
}) {
  return (
    <div className="tabs" role="group" aria-label={label}>
      {options.map(([v, text]) => (
        <button
          key={v}
          type="button"
          aria-pressed={v === value}
          onClick={() => setQuery({ [param]: v, page: null }, true)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

function Row({
  entry,
  field,
  costField,
  mine,
}: {
  entry: Entry;
  field: keyof Entry;
  costField: keyof Entry;
  mine: boolean;
}) {
  const name = entry.display_name ?? (entry.is_public ? 'Unnamed' : 'Anonymous');
  return (
    <tr className={mine ? 'me' : ''} data-testid={mine ? 'my-row' : undefined}>
      <td className="rank">{entry.rank ?? '—'}</td>
      <th scope="row">
        <span className="who">
          <Avatar url={entry.avatar_url} name={entry.user_id ? name : null} size={28} />
          {entry.user_id && entry.is_public ? (
            <Link href={`/u/${entry.user_id}`}>{name}</Link>
          ) : (
            <span className={entry.is_public ? '' : 'muted'}>{name}</span>
          )}
          {mine && <span className="badge">you</span>}
        </span>
      </th>
      <td className="num" title={exactCount(String(entry[field]))}>
        {humanCount(String(entry[field]))}
      </td>
      <td className="num" title={exactUsd(String(entry[costField]))}>
        {humanUsd(String(entry[costField]))}
      </td>
    </tr>
  );
}

export function Leaderboard() {
  const { query } = useLocation();
  const session = useSession();
  const period = PERIODS.some(([p]) => p === query.get('period')) ? (query.get('period') as string) : 'week';
  const metric = METRICS.find(([m]) => m === query.get('metric')) ?? METRICS[0];
  const page = Math.max(1, Number(query.get('page')) || 1);
  const signedIn = session.status === 'signed-in';
  const board = useLoad(`${period}|${metric[0]}|${page}|${signedIn}`, (signal) =>
    call<Board>('svc-leaderboard', {
      params: { period, metric: metric[0], limit: LIMIT, offset: (page - 1) * LIMIT },
      signal,
      ...(signedIn ? {} : { bearer: null }),
    }),
  );
  const field = metric[2] as keyof Entry;
  const costField = metric[3] as keyof Entry;
  const me = board.data?.me ?? null;
  const meOnPage =
    me !== null &&
    me.rank !== null &&
    board.data?.entries.some(
      (e) =>
        e.rank === me.rank &&
        e.total_tokens === me.total_tokens &&
        (e.user_id === me.user_id || (!e.is_public && !me.is_public)),
    );
  // After "Jump to me" opened my page: my row in view.
  const jumped = query.get('jump') === '1';
  useEffect(() => {
    if (!jumped || !board.data) return;
    document.querySelector('.board-main tr.me')?.scrollIntoView({ block: 'center' });
    setQuery({ jump: null });
  }, [jumped, board.data]);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Leaderboard</h1>
          <p className="muted">
            Billable tokens and their cost, in UTC.{' '}
            {board.data &&
              `${humanDate(board.data.from)} – ${board.data.to.startsWith('9999') ? 'now' : humanDate(board.data.to)}`}
          </p>
        </div>
      </div>
      <div className="toolbar wrap">
        <Tabs label="Period" value={period} options={PERIODS} param="period" />
        <Tabs label="Metric" value={metric[0]} options={METRICS} param="metric" />
      </div>
      {me && (
        <div className="me-pin" aria-label="Your place">
          <div className="me-pin-head">
            <span className="muted small">Your place</span>
            {me.rank !== null && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  const target = Math.ceil((me.rank ?? 1) / LIMIT);
                  if (target !== page) setQuery({ page: target === 1 ? null : String(target), jump: '1' }, true);
                  else document.querySelector('.board-main tr.me')?.scrollIntoView({ block: 'center' });
                }}
              >
                Jump to me
              </button>
            )}
          </div>
          <div className="table-wrap">
            <table className="board">
              <tbody>
                <Row entry={me} field={field} costField={costField} mine />
              </tbody>
            </table>
          </div>
          {!me.is_public && (
            <p className="muted small">
              Others see you as “Anonymous”. Turn on sharing in <Link href="/settings">Settings</Link> to show your
              name.
            </p>
          )}
        </div>
      )}
      <Card>
        {board.error && <ErrorNote message={board.error} retry={board.retry} />}
        {!board.data && !board.error && <Skeleton height={300} />}
        {board.data && board.data.entries.length === 0 && <p className="muted">Nobody has usage in this period yet.</p>}
        {board.data && board.data.entries.length > 0 && (
          <div className="table-wrap">
            <table className="board board-main">
              <caption className="sr-only">Leaderboard, page {page}</caption>
              <thead>
                <tr>
                  <th scope="col">
                    {/* "#" keeps the column narrow on a phone; screen readers hear "Rank". */}
                    <span aria-hidden="true">#</span>
                    <span className="sr-only">Rank</span>
                  </th>
                  <th scope="col">Who</th>
                  <th scope="col" className="num">
                    Tokens
                  </th>
                  <th scope="col" className="num">
                    Cost
                  </th>
                </tr>
              </thead>
              <tbody>
                {board.data.entries.map((e, i) => (
                  <Row
                    key={`${e.rank}-${e.user_id ?? i}`}
                    entry={e}
                    field={field}
                    costField={costField}
                    mine={Boolean(
                      meOnPage &&
                      me &&
                      e.rank === me.rank &&
                      e.user_id === me.user_id &&
                      e.total_tokens === me.total_tokens,
                    )}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {board.data && board.data.total_pages > 1 && (
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              className="btn btn-small"
              disabled={page <= 1}
              onClick={() => setQuery({ page: String(page - 1) }, true)}
            >
              Previous
            </button>
            <span>
              Page {page} of {board.data.total_pages}
            </span>
            <button
              type="button"
              className="btn btn-small"
              disabled={page >= board.data.total_pages}
              onClick={() => setQuery({ page: String(page + 1) }, true)}
            >
              Next
            </button>
          </nav>
        )}
      </Card>
    </div>
  );
}
