/** @fileoverview Settings: live previews of the public badge and card, with Markdown and HTML to paste. */
import { useEffect, useState } from 'react';
import { call, type Answer } from '../api.js';
import { CodeBlock } from '../components/common.js';

type Period = 'week' | 'month' | 'total';
type Metric = 'all' | 'gpt' | 'claude' | 'other';
type CardTheme = 'light' | 'dark';

const PERIODS: Array<[Period, string]> = [
  ['week', 'This week'],
  ['month', 'This month'],
  ['total', 'All time'],
];
const METRICS: Array<[Metric, string]> = [
  ['all', 'All'],
  ['gpt', 'GPT'],
  ['claude', 'Claude'],
  ['other', 'Other'],
];
const THEMES: Array<[CardTheme, string]> = [
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** Query string with the server's defaults left out (period=week, metric=all, theme=light). */
function query(params: { period: Period; metric: Metric; theme?: CardTheme }): string {
  const q = new URLSearchParams();
  if (params.period !== 'week') q.set('period', params.period);
  if (params.metric !== 'all') q.set('metric', params.metric);
  if (params.theme && params.theme !== 'light') q.set('theme', params.theme);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The paths of the badge and of the card (both themes) for these choices. */
export function imagePaths(userId: string, period: Period, metric: Metric, theme: CardTheme) {
  const id = encodeURIComponent(userId);
  return {
    badge: `/badge/${id}.svg${query({ period, metric })}`,
    card: `/card/${id}.svg${query({ period, metric, theme })}`,
    cardLight: `/card/${id}.svg${query({ period, metric, theme: 'light' })}`,
    cardDark: `/card/${id}.svg${query({ period, metric, theme: 'dark' })}`,
    profile: `/u/${id}`,
  };
}

function Choice<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: Array<[T, string]>;
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      <div className="segmented">
        {options.map(([v, label]) => (
          <button key={v} type="button" aria-pressed={value === v} onClick={() => onChange(v)}>
            {label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

export function BadgePreview({ userId, isPublic }: { userId: string; isPublic: boolean }) {
  const [period, setPeriodState] = useState<Period>('week');
  const [chosen, setChosen] = useState(false);
  const setPeriod = (p: Period) => (setChosen(true), setPeriodState(p));
  // The preview opens on the first period (week, month, all time) that has tokens to show.
  useEffect(() => {
    if (!isPublic || chosen) return;
    const abort = new AbortController();
    void (async () => {
      for (const p of ['week', 'month', 'total'] as const) {
        try {
          const { entry } = await call<Answer<'svc-leaderboard-profile'>>('svc-leaderboard-profile', {
            params: { user_id: userId, period: p },
            signal: abort.signal,
          });
          if (entry.total_tokens && entry.total_tokens !== '0') {
            if (!abort.signal.aborted) setPeriodState(p);
            return;
          }
        } catch {
          return; // keep the week
        }
      }
    })();
    return () => abort.abort();
  }, [userId, isPublic, chosen]);
  const [metric, setMetric] = useState<Metric>('all');
  const [theme, setTheme] = useState<CardTheme>('light');
  const paths = imagePaths(userId, period, metric, theme);
  const abs = (path: string) => `${location.origin}${path}`;
  const periodWords = PERIODS.find(([p]) => p === period)?.[1].toLowerCase() ?? '';
  const markdown = [
    `[![AI tokens ${periodWords}](${abs(paths.badge)})](${abs(paths.profile)})`,
    `[![My Tokentally card](${abs(paths.card)})](${abs(paths.profile)})`,
  ].join('\n');
  const html = [
    `<a href="${abs(paths.profile)}">`,
    `  <picture>`,
    `    <source media="(prefers-color-scheme: dark)" srcset="${abs(paths.cardDark)}">`,
    `    <img alt="My AI token usage" width="440" height="180" src="${abs(paths.cardLight)}">`,
    `  </picture>`,
    `</a>`,
    `<img alt="AI tokens ${periodWords}" src="${abs(paths.badge)}">`,
  ].join('\n');

  return (
    <div className="badge-preview" data-testid="badge-preview">
      <h3>Badge and card</h3>
      {!isPublic ? (
        <p className="muted" data-testid="badge-not-public">
          Your badge and card show “not public” until you turn Public on. Once it is on, they show your token totals,
          your rank and your top model family from the leaderboard.
        </p>
      ) : (
        <>
          <p className="muted small">
            Figures come from the leaderboard, refreshed every few minutes. Anyone with the address can see them while
            Public is on.
          </p>
          <div className="preview-controls">
            <Choice legend="Period" options={PERIODS} value={period} onChange={setPeriod} />
            <Choice legend="Tokens of" options={METRICS} value={metric} onChange={setMetric} />
            <Choice legend="Card theme" options={THEMES} value={theme} onChange={setTheme} />
          </div>
          <div className="preview-images">
            <img src={paths.badge} alt={`Badge preview: AI tokens ${periodWords}`} data-testid="badge-img" />
            <img
              className="card-img"
              src={paths.card}
              alt={`Card preview (${theme})`}
              width={440}
              height={180}
              data-testid="card-img"
            />
          </div>
          <div className="field">
            <span>Markdown (a README)</span>
            <CodeBlock code={markdown} label="Markdown snippet" wrap testId="snippet-markdown" />
          </div>
          <div className="field">
            <span>HTML (the card follows the reader’s light or dark scheme)</span>
            <CodeBlock code={html} label="HTML snippet" wrap testId="snippet-html" />
          </div>
        </>
      )}
    </div>
  );
}
