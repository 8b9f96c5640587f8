/** @fileoverview The overview's cards that do not follow the range: activity heatmap, last 24 months, top projects. */
import { memo } from 'react';
import { Card, ChartOrTable, ErrorNote, Skeleton } from '../components/common.js';
import { HeatLegend, Heatmap } from '../components/heatmap.js';
import { MonthlyBars } from '../components/bars.js';
import { exactCount, humanCount, humanDate, humanMonth, humanUsd } from '../lib/format.js';
import type { Loaded } from '../use-api.js';
import type { Heatmap as HeatmapData, Monthly, Projects } from './overview-data.js';

export const ActivityCard = memo(function ActivityCard({
  heat,
  onOpen,
}: {
  heat: Loaded<HeatmapData>;
  onOpen: (day: string) => void;
}) {
  const data = heat.data;
  return (
    <Card
      id="heatmap"
      title="Activity"
      actions={
        data && (
          <span className="muted small">
            {data.active_days} active days · streak {data.streak_days}
          </span>
        )
      }
    >
      {heat.error && <ErrorNote message={heat.error} retry={heat.retry} />}
      {data ? (
        <ChartOrTable
          label="activity"
          chart={
            <>
              <Heatmap
                weeks={data.weeks}
                weekStartsOn={data.week_starts_on === 'mon' ? 'mon' : 'sun'}
                onOpen={onOpen}
              />
              <HeatLegend />
            </>
          }
          table={() => (
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
                {data.weeks
                  .flat()
                  .filter((c) => c !== null && c.value !== '0')
                  .map((c) => (
                    <tr key={c!.day}>
                      <th scope="row">
                        <button type="button" className="link-button" onClick={() => onOpen(c!.day)}>
                          {humanDate(c!.day, undefined, true)}
                        </button>
                      </th>
                      <td className="num">{exactCount(c!.value)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
        />
      ) : (
        !heat.error && <Skeleton height={130} />
      )}
    </Card>
  );
});

export const MonthsCard = memo(function MonthsCard({ monthly }: { monthly: Loaded<Monthly> }) {
  const data = monthly.data;
  return (
    <Card id="monthly" title="Last 24 months">
      {monthly.error && <ErrorNote message={monthly.error} retry={monthly.retry} />}
      {data ? (
        <ChartOrTable
          label="months"
          chart={
            <MonthlyBars
              rows={data.data.map((m) => ({
                month: m.month,
                value: Number(m.billable_total_tokens),
                exact: m.billable_total_tokens,
              }))}
            />
          }
          table={() => (
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
                {data.data.map((m) => (
                  <tr key={m.month}>
                    <th scope="row">{humanMonth(m.month)}</th>
                    <td className="num">{exactCount(m.billable_total_tokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        />
      ) : (
        !monthly.error && <Skeleton height={160} />
      )}
    </Card>
  );
});

/** The top projects, all time; `allDevices` says so when the rest of the page shows one device (projects keep no device). */
export const ProjectsCard = memo(function ProjectsCard({
  projects,
  allDevices = false,
}: {
  projects: Loaded<Projects>;
  allDevices?: boolean;
}) {
  const entries = projects.data?.entries ?? [];
  const max = Number(entries[0]?.billable_total_tokens ?? 1) || 1;
  return (
    <Card
      id="projects"
      title="Top projects"
      actions={<span className="muted small">{allDevices ? 'all time, all devices' : 'all time'}</span>}
    >
      {projects.error && <ErrorNote message={projects.error} retry={projects.retry} />}
      {projects.data && entries.length === 0 && (
        <p className="muted">
          No projects yet. Run <code>tokentally sync --projects</code> to attribute usage to git repositories.
        </p>
      )}
      {entries.length > 0 && (
        <ol className="project-list">
          {entries.map((p) => (
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
                  {p.total_cost_usd !== undefined && <span className="muted"> · {humanUsd(p.total_cost_usd)}</span>}
                </span>
              </div>
              <span className="share-bar wide" aria-hidden="true">
                <span style={{ width: `${(Number(p.billable_total_tokens) / max) * 100}%` }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
});
