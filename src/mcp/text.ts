/**
 * @fileoverview The MCP tools' text answers: a few lines an agent can read and quote, with the
 * exact decimal strings of the structured answer (token counts whole, USD with 6 places) and
 * nothing rounded.
 */
import type { BudgetListResponse } from '../schemas/budgets.js';
import type { LeaderboardResponse } from '../schemas/leaderboard.js';
import type { BreakdownBody, DailyBody, ProjectSummaryBody, SummaryBody } from '../schemas/usage.js';

/** Days listed at most in a daily answer's text (the structured answer has them all). */
const MAX_TEXT_DAYS = 62;

type Totals = SummaryBody['totals'];

function countsLine(t: Totals): string {
  return (
    `${t.total_tokens} tokens (billable ${t.billable_total_tokens}; input ${t.input_tokens}, ` +
    `cached input ${t.cached_input_tokens}, output ${t.output_tokens}, reasoning ${t.reasoning_output_tokens}), ` +
    `cost USD ${t.total_cost_usd}`
  );
}

function rangeLine(r: { from: string; to: string; days: number }, zone: string): string {
  return `${r.from} to ${r.to} (${r.days} day${r.days === 1 ? '' : 's'}, ${zone})`;
}

function filterNote(filters: { source?: string | undefined; model?: string | null | undefined }): string {
  const parts: string[] = [];
  if (filters.source) parts.push(`source ${filters.source}`);
  if (filters.model) parts.push(`model ${filters.model}`);
  return parts.length === 0 ? '' : ` [${parts.join(', ')}]`;
}

function unpricedNote(pricing: SummaryBody['pricing']): string {
  return pricing.unpriced_models.length === 0
    ? ''
    : `\nModels without a price (costed as ${pricing.default_model}): ${pricing.unpriced_models.join(', ')}.`;
}

export function summaryText(body: SummaryBody, zone: string, source: string | undefined): string {
  return (
    `Usage ${rangeLine(body, zone)}${filterNote({ source, model: body.model_id ?? body.model })}: ` +
    `${countsLine(body.totals)}.${unpricedNote(body.pricing)}`
  );
}

export function dailyText(body: DailyBody, zone: string, source: string | undefined): string {
  const active = body.data.filter((d) => d.total_tokens !== '0');
  const shown = active.slice(-MAX_TEXT_DAYS);
  const lines = shown.map((d) => `${d.day}: ${d.total_tokens} tokens (billable ${d.billable_total_tokens})`);
  const omitted = active.length - shown.length;
  return [
    `Daily usage ${rangeLine(body, zone)}${filterNote({ source, model: body.model_id ?? body.model })}; ` +
      `${active.length} of ${body.days} days with usage.`,
    ...(omitted > 0 ? [`(${omitted} earlier days with usage are in the structured answer only.)`] : []),
    ...lines,
    `Total: ${countsLine(body.summary.totals)}.`,
  ].join('\n');
}

export function breakdownText(body: BreakdownBody, zone: string): string {
  const lines: string[] = [`Usage by source and model ${rangeLine(body, zone)}:`];
  for (const s of body.sources) {
    lines.push(`${s.source}: ${s.totals.total_tokens} tokens, USD ${s.totals.total_cost_usd}`);
    for (const m of s.models)
      lines.push(`  ${m.model_id}: ${m.totals.total_tokens} tokens, USD ${m.totals.total_cost_usd}`);
  }
  if (body.sources.length === 0) lines.push('No usage.');
  return lines.join('\n') + unpricedNote(body.pricing);
}

export function projectsText(body: ProjectSummaryBody): string {
  if (body.entries.length === 0) return 'No project usage recorded.';
  return [
    'Top projects, all time:',
    ...body.entries.map(
      (e, i) =>
        `${i + 1}. ${e.project_ref || e.project_key}: ${e.total_tokens} tokens (billable ${e.billable_total_tokens})`,
    ),
  ].join('\n');
}

export function rankText(
  body: Pick<LeaderboardResponse, 'period' | 'metric' | 'from' | 'to' | 'generated_at' | 'total_entries' | 'me'>,
): string {
  const window = `${body.period} ${body.from} to ${body.to} (UTC; snapshot of ${body.generated_at})`;
  const metric = body.metric === 'all' ? 'all tokens' : `${body.metric} tokens`;
  const me = body.me;
  if (me === null || me.rank === null) return `Not ranked in ${metric} for the ${window}: no usage in it.`;
  const mine = body.metric === 'all' ? me.total_tokens : me[`${body.metric as 'gpt' | 'claude' | 'other'}_tokens`];
  return `Rank ${me.rank} of ${body.total_entries} in ${metric} for the ${window}: ${mine} billable tokens.`;
}

/** An instant as local date and time in a zone (`2026-11-01 00:00`). */
function localTime(iso: string, zone: string): string {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return format.format(new Date(iso));
}

export function budgetsText(body: BudgetListResponse, zone: string): string {
  if (body.budgets.length === 0) return 'No budgets are set for you or your teams.';
  const lines = body.budgets.map((b) => {
    const owner = b.scope === 'team' ? `team ${b.team_id ?? ''}` : 'you';
    const spent =
      b.limit_usd !== null
        ? `USD ${b.spend_usd} of USD ${b.limit_usd} spent`
        : `${b.spend_tokens} of ${b.limit_tokens ?? '?'} billable tokens used`;
    return (
      `${b.period} budget (${owner}): ${spent} (${b.share}%, ${b.state}); ` +
      `period ${localTime(b.period_start, zone)} to ${localTime(b.period_end, zone)} (${zone}; counted in ${b.tz}).`
    );
  });
  return [`${body.budgets.length} budget${body.budgets.length === 1 ? '' : 's'}:`, ...lines].join('\n');
}
