/**
 * @fileoverview The team overview's tables: the shares by member, model or source, and the members
 * table (owners and admins): tokens, cost, share and last upload, sortable, as CSV; a member's name
 * opens their drill-down. On a phone both stack each row (styles.css, `.stack-table`).
 */
import { Card, ErrorNote, Skeleton } from '../components/common.js';
import { toCsv } from '../lib/csv.js';
import { exactCount, humanCount, humanPercent, humanUsd, relativeTime } from '../lib/format.js';
import type { DateRange } from '../lib/ranges.js';
import { setQuery, useLocation } from '../router.js';
import type { Loaded } from '../use-api.js';
import type { TeamUsage, UsageRow } from './team-data.js';

type Group = 'member' | 'model' | 'source';

const share = (row: UsageRow, all: TeamUsage): number => {
  const total = Number(all.totals.billable_total_tokens);
  return total > 0 ? Number(row.totals.billable_total_tokens) / total : 0;
};

export function SharesTable({
  loaded,
  group,
  manager,
  onGroup,
}: {
  loaded: Loaded<TeamUsage>;
  group: Group;
  manager: boolean;
  onGroup: (g: Group) => void;
}) {
  const groups: Group[] = manager ? ['model', 'source', 'member'] : ['model', 'source'];
  return (
    <Card
      id="team-shares"
      title="Shares"
      actions={
        <div className="segmented" role="group" aria-label="Group by">
          {groups.map((g) => (
            <button key={g} type="button" aria-pressed={g === group} onClick={() => onGroup(g)}>
              {g[0]!.toUpperCase() + g.slice(1)}
            </button>
          ))}
        </div>
      }
    >
      {loaded.error && <ErrorNote message={loaded.error} retry={loaded.retry} />}
      {loaded.data ? (
        <div className="table-wrap">
          <table className="data-table stack-table">
            <thead>
              <tr>
                <th scope="col">{group[0]!.toUpperCase() + group.slice(1)}</th>
                <th scope="col" className="num stack-hide">
                  Billable tokens
                </th>
                <th scope="col" className="num stack-hide">
                  Cost
                </th>
                <th scope="col" className="num stack-hide">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{r.label ?? r.key}</th>
                  <td className="num" data-label="Billable tokens" title={exactCount(r.totals.billable_total_tokens)}>
                    {humanCount(r.totals.billable_total_tokens)}
                  </td>
                  <td className="num" data-label="Cost">
                    {humanUsd(r.totals.total_cost_usd ?? '0')}
                  </td>
                  <td className="num" data-label="Share">
                    {humanPercent(share(r, loaded.data!))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        !loaded.error && <Skeleton height={120} />
      )}
    </Card>
  );
}

const SORTS = ['name', 'tokens', 'cost', 'upload'] as const;
type Sort = (typeof SORTS)[number];

function sortValue(r: UsageRow, sort: Sort): string | number {
  if (sort === 'name') return (r.label ?? r.key).toLowerCase();
  if (sort === 'tokens') return Number(r.totals.billable_total_tokens);
  if (sort === 'cost') return Number(r.totals.total_cost_usd ?? 0);
  return r.last_upload_at ?? '';
}

export function MembersTable({
  loaded,
  nowMs,
  range,
  team,
  onOpen,
}: {
  loaded: Loaded<TeamUsage>;
  nowMs: number;
  range: DateRange;
  team: string;
  onOpen: (userId: string) => void;
}) {
  const { query } = useLocation();
  const raw = query.get('msort') ?? '-tokens';
  const sort = (SORTS as readonly string[]).includes(raw.replace(/^-/, ''))
    ? (raw.replace(/^-/, '') as Sort)
    : 'tokens';
  const descending = raw.startsWith('-');
  const data = loaded.data;
  const rows = data
    ? [...data.rows].sort((a, b) => {
        const x = sortValue(a, sort);
        const y = sortValue(b, sort);
        const c = x < y ? -1 : x > y ? 1 : 0;
        return descending ? -c : c;
      })
    : [];
  const header = (key: Sort, text: string, num = true) => (
    <th
      scope="col"
      className={num ? 'num' : undefined}
      aria-sort={sort === key ? (descending ? 'descending' : 'ascending') : undefined}
    >
      <button
        type="button"
        className="link-button"
        onClick={() => setQuery({ msort: sort === key && descending ? key : `-${key}` })}
      >
        {text}
      </button>
    </th>
  );
  const csv = () => {
    if (!data) return;
    const text = toCsv(
      ['member', 'billable_tokens', 'total_tokens', 'cost_usd', 'share', 'last_upload_at'],
      rows.map((r) => [
        r.label ?? r.key,
        r.totals.billable_total_tokens,
        r.totals.total_tokens,
        r.totals.total_cost_usd ?? '',
        share(r, data).toFixed(4),
        r.last_upload_at ?? '',
      ]),
    );
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
    a.download = `${team}-members-${range.from}-${range.to}.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <Card
      id="team-members"
      title="Members"
      actions={
        <button type="button" className="btn btn-small" onClick={csv} disabled={!data}>
          Download CSV
        </button>
      }
    >
      {loaded.error && <ErrorNote message={loaded.error} retry={loaded.retry} />}
      {data ? (
        <div className="table-wrap">
          <table className="data-table stack-table">
            <thead>
              <tr>
                {header('name', 'Member', false)}
                {header('tokens', 'Billable tokens')}
                {header('cost', 'Cost')}
                <th scope="col" className="num stack-hide">
                  Share
                </th>
                {header('upload', 'Last upload')}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => onOpen(r.key)}>
                      {r.label ?? r.key}
                    </button>
                  </th>
                  <td className="num" data-label="Billable tokens" title={exactCount(r.totals.billable_total_tokens)}>
                    {humanCount(r.totals.billable_total_tokens)}
                  </td>
                  <td className="num" data-label="Cost">
                    {humanUsd(r.totals.total_cost_usd ?? '0')}
                  </td>
                  <td className="num" data-label="Share">
                    {humanPercent(share(r, data))}
                  </td>
                  <td className="num" data-label="Last upload">
                    {r.last_upload_at ? relativeTime(r.last_upload_at, nowMs) : 'never'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        !loaded.error && <Skeleton height={160} />
      )}
    </Card>
  );
}
