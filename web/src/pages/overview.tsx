/** @fileoverview The overview: one range drives every panel; range, zone, grouping, unit and sort live in the URL. */
import { useMemo } from 'react';
import { call } from '../api.js';
import { Card, ChartOrTable, ErrorNote, Skeleton } from '../components/common.js';
import { HeatLegend, Heatmap } from '../components/heatmap.js';
import { MonthlyBars } from '../components/bars.js';
import { RangePicker, ZonePicker } from '../components/range-picker.js';
import { todayIn } from '../lib/dates.js';
import { exactCount, humanCount, humanDate, humanMonth } from '../lib/format.js';
import { isPreset, resolveRange, type Preset } from '../lib/ranges.js';
import type { SortKey } from '../lib/series.js';
import { browserZone, usePrefs } from '../prefs.js';
import { setQuery, useLocation } from '../router.js';
import { useLoad } from '../use-api.js';
import { GetStarted } from './get-started.js';
import { BudgetOverview } from './budgets-panel.js';
import {
  loadHeatmap,
  loadMonthly,
  loadOverview,
  loadProjects,
  loadStackedTrend,
  type StackBy,
} from './overview-data.js';
import { DailyTable, ModelBreakdown, TotalsPanel, TrendPanel } from './overview-panels.js';

const SORT_KEYS: SortKey[] = [
  'day',
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
  const browser = browserZone();
  const zone = query.get('tz') ?? prefs.zone ?? browser;
  const nowMs = useMemo(() => Date.now(), [query.toString()]); // a new "now" with every change of view
  const today = todayIn(zone, nowMs);
  const rawPreset = query.get('range');
  const preset: Preset = isPreset(rawPreset) ? rawPreset : '7d';
  const range = resolveRange(preset, today, prefs.weekStart, { from: query.get('from'), to: query.get('to') });
  const by: StackBy = query.get('by') === 'model' ? 'model' : 'source';
  const unit = query.get('unit') === 'cost' ? 'cost' : 'tokens';
  const sortParam = query.get('sort') ?? '';
  const sort = (SORT_KEYS as string[]).includes(sortParam.replace(/^-/, ''))
    ? (sortParam.replace(/^-/, '') as SortKey)
    : 'day';
  const descending = sortParam === '' ? true : sortParam.startsWith('-');

  const mainKey = `${range.from}|${range.to}|${zone}`;
  const main = useLoad(mainKey, (signal) => loadOverview(range, zone, signal));
  const stacked = useLoad(main.data && !main.loading ? `${mainKey}|${by}` : null, (signal) =>
    loadStackedTrend(main.data!, range, zone, by, signal),
  );
  const trendData = main.data && stacked.data && !stacked.loading ? { ...main.data, trend: stacked.data } : main.data;
  const heat = useLoad(`${zone}|${prefs.weekStart}|${today}`, (signal) =>
    loadHeatmap(zone, prefs.weekStart, today, signal),
  );
  const monthly = useLoad(`${zone}|${today}`, (signal) => loadMonthly(zone, today, signal));
  const projects = useLoad('projects', (signal) => loadProjects(signal));
  const status = useLoad('status', (signal) =>
    call<{ install?: { active_devices?: number } }>('svc-user-status', { signal }),
  );

  const openDay = (day: string) => setQuery({ range: 'custom', from: day, to: day }, true);
  const noUsage =
    main.data &&
    main.data.summary.totals.total_tokens === '0' &&
    heat.data?.active_days === 0 &&
    monthly.data?.data.every((m) => m.total_tokens === '0');

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
                <Segmented
                  label="Show"
                  value={unit}
                  options={[
                    ['tokens', 'Tokens'],
                    ['cost', 'Cost'],
                  ]}
                  onChange={(v) => setQuery({ unit: v === 'tokens' ? null : v })}
                />
              </>
            }
          >
            {trendData ? <TrendPanel data={trendData} by={by} unit={unit} nowMs={nowMs} /> : <Skeleton height={260} />}
            {unit === 'cost' && main.data && (
              <p className="footnote">
                Daily cost is estimated from each {by}&apos;s average price in the range; totals above are exact.
              </p>
            )}
          </Card>

          <Card
            id="heatmap"
            title="Activity"
            actions={
              heat.data && (
                <span className="muted small">
                  {heat.data.active_days} active days · streak {heat.data.streak_days}
                </span>
              )
            }
          >
            {heat.error && <ErrorNote message={heat.error} retry={heat.retry} />}
            {heat.data ? (
              <ChartOrTable
                label="activity"
                chart={
                  <>
                    <Heatmap weeks={heat.data.weeks} weekStartsOn={heat.data.week_starts_on} onOpen={openDay} />
                    <HeatLegend />
                  </>
                }
                table={
                  <table className="data-table">
                    <caption className="sr-only">Active days of the last 52 weeks</caption>
                    <thead>
                      <tr>
                        <th scope="col">Day</th>
                        <th scope="col" className="num">
                          Tokens
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {heat.data.weeks
                        .flat()
                        .filter((c) => c !== null && c.value !== '0')
                        .map((c) => (
                          <tr key={c!.day}>
                            <th scope="row">
                              <button type="button" className="link-button" onClick={() => openDay(c!.day)}>
                                {humanDate(c!.day, undefined, true)}
                              </button>
                            </th>
                            <td className="num">{exactCount(c!.value)}</td>
                          </tr>
                        ))}
                    </tbody>
                  </table>
                }
              />
            ) : (
              !heat.error && <Skeleton height={130} />
            )}
          </Card>
          <Card id="models" title="Models">
            {main.data ? <ModelBreakdown sources={main.data.breakdown.sources} /> : <Skeleton height={130} />}
          </Card>

          <div className="grid-2">
            <Card id="monthly" title="Last 24 months">
              {monthly.error && <ErrorNote message={monthly.error} retry={monthly.retry} />}
              {monthly.data ? (
                <ChartOrTable
                  label="months"
                  chart={
                    <MonthlyBars
                      rows={monthly.data.data.map((m) => ({
                        month: m.month,
                        value: Number(m.billable_total_tokens),
                        exact: m.billable_total_tokens,
                      }))}
                    />
                  }
                  table={
                    <table className="data-table">
                      <caption className="sr-only">Billable tokens per month</caption>
                      <thead>
                        <tr>
                          <th scope="col">Month</th>
                          <th scope="col" className="num">
                            Billable tokens
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {monthly.data.data.map((m) => (
                          <tr key={m.month}>
                            <th scope="row">{humanMonth(m.month)}</th>
                            <td className="num">{exactCount(m.billable_total_tokens)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  }
                />
              ) : (
                !monthly.error && <Skeleton height={160} />
              )}
            </Card>
            <Card id="projects" title="Top projects" actions={<span className="muted small">all time</span>}>
              {projects.error && <ErrorNote message={projects.error} retry={projects.retry} />}
              {projects.data && projects.data.entries.length === 0 && (
                <p className="muted">
                  No projects yet. Run <code>tokentally sync --projects</code> to attribute usage to git repositories.
                </p>
              )}
              {projects.data && projects.data.entries.length > 0 && (
                <ol className="project-list">
                  {projects.data.entries.map((p) => {
                    const max = Number(projects.data!.entries[0]?.billable_total_tokens ?? 1) || 1;
                    return (
                      <li key={p.project_key}>
                        <div className="project-row">
                          {p.project_ref.startsWith('https://') ? (
                            <a href={p.project_ref} rel="noreferrer noopener" target="_blank">
                              {p.project_key}
                            </a>
                          ) : (
                            <span>{p.project_key}</span>
                          )}
                          <span className="num" title={exactCount(p.billable_total_tokens)}>
                            {humanCount(p.billable_total_tokens)}
                          </span>
                        </div>
                        <span className="share-bar wide" aria-hidden="true">
                          <span style={{ width: `${(Number(p.billable_total_tokens) / max) * 100}%` }} />
                        </span>
                      </li>
                    );
                  })}
                </ol>
              )}
            </Card>
          </div>

          <Card id="days" title="Days">
            {main.data ? (
              <DailyTable
                data={main.data}
                sort={sort}
                descending={descending}
                onSort={(k) => setQuery({ sort: k === sort ? (descending ? k : `-${k}`) : `-${k}` })}
                onOpen={openDay}
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
