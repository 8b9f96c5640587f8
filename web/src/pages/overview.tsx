/** @fileoverview The overview: one range drives every panel; range, zone, grouping, unit and sort live in the URL. */
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { call, type Answer } from '../api.js';
import { Card, ErrorNote, Skeleton } from '../components/common.js';
import { DevicePicker } from '../components/device-picker.js';
import { RangePicker, ZonePicker } from '../components/range-picker.js';
import { addDays, daysBetween } from '../lib/dates.js';
import { humanDate } from '../lib/format.js';
import { PRESET_LABELS, type DateRange, type Preset } from '../lib/ranges.js';
import type { SortKey } from '../lib/series.js';
import { usePrefs } from '../prefs.js';
import { setQuery, useLocation, useViewTime } from '../router.js';
import { useLoad } from '../use-api.js';
import { GetStarted } from './get-started.js';
import { BudgetOverview } from './budgets-panel.js';
import {
  DEVICES_READ,
  loadHeatmap,
  loadMonthly,
  loadOverview,
  loadProjects,
  loadStackedTrend,
  overviewView,
  STATUS_READ,
  usageSpan,
  type StackBy,
} from './overview-data.js';
import { ActivityCard, MonthsCard, ProjectsCard } from './overview-cards.js';
import { TotalsPanel, TrendPanel } from './overview-panels.js';
import { DailyTable, ModelBreakdown } from './overview-tables.js';

const SORT_KEYS: Array<SortKey | 'cost'> = [
  'day',
  'cost',
  'total_tokens',
  'billable_total_tokens',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
];

export function Overview() {
  const { query } = useLocation();
  const prefs = usePrefs();
  const nowMs = useViewTime();
  const { browser, zone, today, rawPreset, preset, device, resolved } = overviewView(query, prefs, nowMs);
  const heat = useLoad(`${zone}|${prefs.weekStart}|${today}|${device}`, (signal) =>
    loadHeatmap(zone, prefs.weekStart, today, device, signal),
  );
  const monthly = useLoad(`${zone}|${today}|${device}`, (signal) => loadMonthly(zone, today, device, signal));
  const span = heat.loading || monthly.loading ? undefined : usageSpan(heat.data, monthly.data);
  // "All time" starts at the first usage (once the heatmap and the months say when that was).
  const allFrom = span && span.first > resolved.from ? span.first : resolved.from;
  const range: DateRange =
    preset === 'all' ? { from: allFrom, to: resolved.to, days: daysBetween(allFrom, resolved.to) } : resolved;
  const waitForSpan = preset === 'all' && span === undefined;
  const by: StackBy = query.get('by') === 'model' ? 'model' : 'source';
  const unit = query.get('unit') === 'cost' ? 'cost' : 'tokens';
  const sortParam = query.get('sort') ?? '';
  const sort = (SORT_KEYS as string[]).includes(sortParam.replace(/^-/, ''))
    ? (sortParam.replace(/^-/, '') as SortKey | 'cost')
    : 'day';
  const showEmpty = query.get('empty') === '1';
  const descending = sortParam === '' ? true : sortParam.startsWith('-');

  const mainKey = `${range.from}|${range.to}|${zone}|${device}`;
  const main = useLoad(waitForSpan ? null : mainKey, (signal) => loadOverview(range, zone, device, signal));
  const stacked = useLoad(main.data && !main.loading ? `${mainKey}|${by}` : null, (signal) =>
    loadStackedTrend(main.data!, range, zone, by, device, signal),
  );
  // The device list and the projects are read once the range's first answers are in (and kept
  // after): the first chart does not wait behind them on the server.
  const [firstRoundDone, setFirstRoundDone] = useState(false);
  if (!firstRoundDone && (main.data !== undefined || main.error !== undefined)) setFirstRoundDone(true);
  const devices = useLoad(firstRoundDone ? 'devices' : null, (signal) =>
    call<Answer<'svc-devices'>>(DEVICES_READ[0], { params: DEVICES_READ[1], signal }),
  );
  const stackedTrend = stacked.data && !stacked.loading ? stacked.data : undefined;
  // One object per answer (not per render): the panels below are memoised on it.
  const trendData = useMemo(
    () => (main.data && stackedTrend ? { ...main.data, trend: stackedTrend } : main.data),
    [main.data, stackedTrend],
  );
  // The days table (a row per day: hundreds for a year) renders after the cards and the chart, at a
  // lower priority, so it does not hold back their first paint.
  const tableData = useDeferredValue(trendData, undefined);
  const projects = useLoad(firstRoundDone ? 'projects' : null, (signal) => loadProjects(signal));
  const status = useLoad('status', (signal) =>
    call<Answer<'svc-user-status'>>(STATUS_READ[0], { params: STATUS_READ[1], signal }),
  );

  const emptyRange = main.data !== undefined && !main.loading && main.data.summary.totals.total_tokens === '0';
  const noUsage = emptyRange && heat.data !== undefined && monthly.data !== undefined && span === null;
  // The first view opens on a range that has data: 30 days or all time when the last 7 are empty.
  const [opened, setOpened] = useState<Preset | null>(null);
  const autoOpen: Preset | null =
    rawPreset === null && emptyRange && span ? (span.last >= addDays(today, -29) ? '30d' : 'all') : null;
  if (autoOpen !== null && opened !== autoOpen) setOpened(autoOpen);
  useEffect(() => {
    if (autoOpen !== null) setQuery({ range: autoOpen });
  }, [autoOpen]);
  const onSort = useCallback(
    (k: SortKey | 'cost') => setQuery({ sort: k === sort ? (descending ? k : `-${k}`) : `-${k}` }),
    [sort, descending],
  );
  const showEmptyNote = emptyRange && span && !(opened && preset === opened);

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Overview</h1>
          <p className="muted">Every token your agents burned, in your time zone.</p>
        </div>
        <div className="toolbar">
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
          <Segmented
            label="Show"
            value={unit}
            options={[
              ['tokens', 'Tokens'],
              ['cost', 'Cost'],
            ]}
            onChange={(v) => setQuery({ unit: v === 'tokens' ? null : v })}
          />
          <DevicePicker
            devices={devices.data?.devices ?? []}
            device={device}
            onDevice={(d) => setQuery({ device: d }, true)}
          />
          <ZonePicker zone={zone} browser={browser} nowMs={nowMs} onZone={(z) => setQuery({ tz: z })} />
        </div>
      </div>

      <BudgetOverview />
      {noUsage && status.data?.install?.active_devices === 0 && (
        <>
          <GetStarted />
          <p className="muted center">Your totals, trend, heatmap and models appear here after the first upload.</p>
        </>
      )}
      {!(noUsage && status.data?.install?.active_devices === 0) && (
        <>
          {main.error && <ErrorNote message={main.error} retry={main.retry} />}
          {opened && preset === opened && (
            <p className="note" role="status" data-testid="opened-on">
              Nothing in the last 7 days: showing {PRESET_LABELS[opened].toLowerCase()}.
            </p>
          )}
          {showEmptyNote && (
            <p className="note" role="status" data-testid="data-elsewhere">
              No usage in this range. Your latest usage is from {humanDate(span.last)}.{' '}
              <button
                type="button"
                className="link-button"
                onClick={() =>
                  setQuery({ range: span.last >= addDays(today, -29) ? '30d' : 'all', from: null, to: null }, true)
                }
              >
                Show {span.last >= addDays(today, -29) ? 'the last 30 days' : 'all time'}
              </button>
            </p>
          )}
          {main.data ? (
            <TotalsPanel data={main.data} streak={heat.data?.streak_days} />
          ) : (
            !main.error && <Skeleton height={96} />
          )}

          <Card
            id="trend"
            title={range.days === 1 ? `Half-hours of ${humanDate(range.from, undefined, true)}` : 'Trend'}
            actions={
              <>
                <Segmented
                  label="Stack by"
                  value={by}
                  options={[
                    ['source', 'Source'],
                    ['model', 'Model'],
                  ]}
                  onChange={(v) => setQuery({ by: v === 'source' ? null : v })}
                />
              </>
            }
          >
            {trendData ? (
              <TrendPanel
                data={trendData}
                by={by}
                unit={unit}
                nowMs={nowMs}
                weekStart={prefs.weekStart === 'mon' ? 1 : 0}
              />
            ) : (
              <Skeleton height={260} />
            )}
            {unit === 'cost' && main.data && (
              <p className="footnote">
                Daily cost is estimated from each {by}&apos;s average price in the range; totals above are exact.
              </p>
            )}
          </Card>

          <ActivityCard heat={heat} onOpen={openDay} />
          <Card id="models" title="Models">
            {main.data ? (
              <ModelBreakdown sources={main.data.breakdown.sources} unit={unit} />
            ) : (
              <Skeleton height={130} />
            )}
          </Card>

          <div className="grid-2">
            <MonthsCard monthly={monthly} />
            <ProjectsCard projects={projects} allDevices={device !== null} />
          </div>

          <Card id="days" title="Days">
            {tableData ? (
              <DailyTable
                data={tableData}
                sort={sort}
                descending={descending}
                showEmpty={showEmpty}
                unit={unit}
                onSort={onSort}
                onOpen={openDay}
                onShowEmpty={showEmptyDays}
              />
            ) : (
              <Skeleton height={200} />
            )}
          </Card>
        </>
      )}
    </div>
  );
}

const openDay = (day: string) => setQuery({ range: 'custom', from: day, to: day }, true);
const showEmptyDays = (show: boolean) => setQuery({ empty: show ? '1' : null });

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: Array<[T, string]>;
  onChange: (v: T) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map(([v, text]) => (
        <button key={v} type="button" aria-pressed={v === value} onClick={() => onChange(v)}>
          {text}
        </button>
      ))}
    </div>
  );
}
