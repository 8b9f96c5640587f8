/**
 * @fileoverview The team overview's trend, stacked like the personal one (docs/teams.md): billable
 * tokens a local day, split by model, source or (owners and admins) member — the five largest in
 * the range, each its own filtered `day` answer, and the rest as "other".
 */
import { Card, Skeleton } from '../components/common.js';
import { TrendChart } from '../components/trend-chart.js';
import { humanDate } from '../lib/format.js';
import { layersWithRest, type Layer } from '../lib/series.js';
import { useLoad } from '../use-api.js';
import { keyColour, modelName, PALETTE, sourceName } from '../../../src/domain/model-names.js';
import { loadUsage, type TeamUsage } from './team-data.js';

export type StackBy = 'model' | 'source' | 'member';
const STACKED = 5;

interface Base {
  team: string;
  from: string;
  to: string;
  tz: string;
  member: string | null;
}

const billable = (u: TeamUsage): number[] => u.rows.map((r) => Number(r.totals.billable_total_tokens));

/** The top keys of `by` in the range, then each one's day rows; the rest of `days` is "other". */
async function loadLayers(base: Base, by: StackBy, days: TeamUsage, signal: AbortSignal): Promise<Layer[]> {
  const groups = await loadUsage({ ...base, group: by }, signal);
  const top = groups.rows.filter((r) => r.totals.billable_total_tokens !== '0').slice(0, STACKED);
  const parts = await Promise.all(
    top.map((r) =>
      loadUsage(
        {
          ...base,
          group: 'day',
          ...(by === 'member' ? { member: r.key } : by === 'source' ? { source: r.key } : { model: r.key }),
        },
        signal,
      ),
    ),
  );
  // Model layers are named as the shares table names the model rows (the server's label).
  const named = top.map((r, i): Layer => {
    const label = by === 'source' ? sourceName(r.key) : by === 'model' ? (r.label ?? modelName(r.key)) : r.label;
    const colour = by === 'member' ? (PALETTE[i % PALETTE.length] as string) : keyColour(r.key, by);
    return { key: r.key, label: label ?? r.key, colour, values: billable(parts[i] as TeamUsage) };
  });
  return layersWithRest(billable(days), named);
}

function Segmented({
  value,
  options,
  onChange,
}: {
  value: StackBy;
  options: StackBy[];
  onChange: (v: StackBy) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label="Stack by">
      {options.map((v) => (
        <button key={v} type="button" aria-pressed={v === value} onClick={() => onChange(v)}>
          {v[0]?.toUpperCase() + v.slice(1)}
        </button>
      ))}
    </div>
  );
}

export function TeamTrend({
  base,
  days,
  by,
  members,
  onBy,
}: {
  base: Base | null;
  days: TeamUsage | undefined;
  by: StackBy;
  /** Whether member layers are offered (owners and admins, on the whole team). */
  members: boolean;
  onBy: (by: StackBy) => void;
}) {
  const stackBy: StackBy = by === 'member' && !members ? 'model' : by;
  const key = base && days ? `${base.team}|${base.from}|${base.to}|${base.tz}|${base.member}|stack|${stackBy}` : null;
  const stacked = useLoad(key, (signal) => loadLayers(base!, stackBy, days!, signal));
  const layers: Layer[] | undefined =
    stacked.data && !stacked.loading
      ? stacked.data
      : days && [{ key: 'billable', label: 'Billable tokens', values: billable(days) }];
  return (
    <Card
      id="team-trend"
      title="Trend"
      actions={
        <Segmented
          value={stackBy}
          options={members ? ['model', 'source', 'member'] : ['model', 'source']}
          onChange={onBy}
        />
      }
    >
      {days && layers ? (
        <TrendChart
          labels={days.rows.map((r) => humanDate(r.key))}
          longLabels={days.rows.map((r) => humanDate(r.key, undefined, true))}
          layers={layers}
          unit="tokens"
        />
      ) : (
        <Skeleton height={260} />
      )}
    </Card>
  );
}
