/**
 * @fileoverview Display names and colours of sources and models, and the grouping of dated model
 * ids with their undated siblings (docs/dashboard.md, "Names and colours"). Pure: the dashboard
 * and the CLI's report both use it, so a source or model reads and looks the same everywhere.
 */

/** How people write the agents' names (the source ids are lower-case on the wire). */
const SOURCE_NAMES: Readonly<Record<string, string>> = {
  claude: 'Claude Code',
  codex: 'Codex',
  'every-code': 'Every Code',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  amp: 'Amp',
  copilot: 'Copilot',
  droid: 'Droid',
  goose: 'Goose',
  kimi: 'Kimi',
  qwen: 'Qwen Code',
  pi: 'Pi',
  cursor: 'Cursor',
  'vscode-agents': 'VS Code agents',
};

/** One colour per known source (readable on light and dark backgrounds). */
const SOURCE_COLOURS: Readonly<Record<string, string>> = {
  claude: '#d97706',
  codex: '#6366f1',
  'every-code': '#8b5cf6',
  gemini: '#0ea5e9',
  opencode: '#10b981',
  amp: '#ec4899',
  copilot: '#64748b',
  droid: '#84cc16',
  goose: '#f43f5e',
  kimi: '#14b8a6',
  qwen: '#a855f7',
};

/** The palette every other key (models, unknown sources) picks from by a stable hash of its name. */
export const PALETTE: readonly string[] = [
  '#6366f1',
  '#0ea5e9',
  '#f59e0b',
  '#ec4899',
  '#10b981',
  '#8b5cf6',
  '#ef4444',
  '#14b8a6',
  '#84cc16',
  '#f97316',
];

/** The colour of "other" (everything past the top keys). */
export const OTHER_COLOUR = '#94a3b8';

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** "OpenCode" for `opencode`; an unknown source gets its words capitalised (`my-tool` → "My Tool"). */
export function sourceName(source: string): string {
  const known = SOURCE_NAMES[source.toLowerCase()];
  if (known) return known;
  return source
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => (w[0] ?? '').toUpperCase() + w.slice(1))
    .join(' ');
}

/** The one colour of a source, or (kind `model`) of a model's grouped id; "other" is grey. */
export function keyColour(key: string, kind: 'source' | 'model'): string {
  if (key === 'other') return OTHER_COLOUR;
  if (kind === 'source') {
    const known = SOURCE_COLOURS[key.toLowerCase()];
    if (known) return known;
  }
  return PALETTE[hash(key.toLowerCase()) % PALETTE.length] as string;
}

const DATE_SUFFIX = /^(.+?)[-@_](\d{4})-?(\d{2})-?(\d{2})$/;

/**
 * A model id without its release date: `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5` with
 * date `2025-09-29`; ids without a date suffix are their own base (date null).
 */
export function modelBase(id: string): { base: string; date: string | null } {
  const m = DATE_SUFFIX.exec(id);
  if (!m) return { base: id, date: null };
  const [, base, y, mo, d] = m as unknown as [string, string, string, string, string];
  if (Number(y) < 2020 || Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31)
    return { base: id, date: null };
  return { base, date: `${y}-${mo}-${d}` };
}

const UPPER = new Set(['gpt', 'glm', 'gpt-oss']);

/**
 * A model's display name from its id, by one rule for every vendor: `claude-sonnet-4-5` →
 * "Claude Sonnet 4.5", `gpt-5.2-codex` → "GPT-5.2 Codex", `gemini-2.5-pro` → "Gemini 2.5 Pro",
 * `o3-mini` → "o3 mini". A provider prefix (`anthropic/`) and a date suffix are dropped.
 */
export function modelName(id: string): string {
  const bare = modelBase(id.includes('/') ? (id.split('/').pop() ?? id) : id).base;
  const parts = bare.split('-').filter(Boolean);
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    const prev = words.at(-1);
    if (/^\d+$/.test(p) && prev !== undefined && /^\d+(\.\d+)*$/.test(prev) && p.length <= 2) {
      words[words.length - 1] = `${prev}.${p}`; // claude-sonnet-4-5 → 4.5
    } else if (UPPER.has(p.toLowerCase()) && /^[\d.]/.test(parts[i + 1] ?? '')) {
      words.push(`${p.toUpperCase()}-${parts[i + 1] as string}`); // gpt-5.2 → GPT-5.2
      i++;
    } else if (UPPER.has(p.toLowerCase())) {
      words.push(p.toUpperCase());
    } else if (/^o\d/.test(p) && i === 0) {
      words.push(p); // o3, o4 stay lower-case, as their vendor writes them
    } else if (/^[a-z]/.test(p)) {
      words.push((p[0] ?? '').toUpperCase() + p.slice(1));
    } else {
      words.push(p);
    }
  }
  return words.length > 0 ? words.join(' ') : id;
}

/** Token totals as the wire sends them (decimal strings; cost in USD). */
export interface WireTotals {
  total_tokens: string;
  billable_total_tokens: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  reasoning_output_tokens: string;
  total_cost_usd: string;
}

export interface ModelEntry<T extends WireTotals = WireTotals> {
  model_id: string;
  totals: T;
  priced_as?: string | null | undefined;
}

/** One model as people think of it: the dated ids and their undated sibling summed, each variant kept. */
export interface GroupedModel<T extends WireTotals = WireTotals> {
  /** The undated id (`claude-sonnet-4-5`). */
  base: string;
  name: string;
  totals: WireTotals;
  /** The ids summed here, largest first, with their release dates (null for the undated one). */
  variants: Array<{ model_id: string; date: string | null; totals: T; priced_as?: string | null | undefined }>;
}

const COUNT_KEYS = [
  'total_tokens',
  'billable_total_tokens',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
] as const;

function addTotals(a: WireTotals, b: WireTotals): WireTotals {
  const out = { ...a };
  for (const k of COUNT_KEYS) out[k] = (BigInt(a[k] ?? '0') + BigInt(b[k] ?? '0')).toString();
  const micros = Math.round(Number(a.total_cost_usd) * 1e6) + Math.round(Number(b.total_cost_usd) * 1e6);
  out.total_cost_usd = (micros / 1e6).toFixed(6);
  return out;
}

const zero: WireTotals = {
  total_tokens: '0',
  billable_total_tokens: '0',
  input_tokens: '0',
  cached_input_tokens: '0',
  output_tokens: '0',
  reasoning_output_tokens: '0',
  total_cost_usd: '0.000000',
};

/** Models grouped by their undated id (exact sums), largest billable first. */
export function groupModels<T extends WireTotals>(models: ReadonlyArray<ModelEntry<T>>): Array<GroupedModel<T>> {
  const groups = new Map<string, GroupedModel<T>>();
  for (const m of models) {
    const { base, date } = modelBase(m.model_id);
    const g = groups.get(base) ?? { base, name: modelName(base), totals: zero, variants: [] };
    g.totals = addTotals(g.totals, m.totals);
    g.variants.push({ model_id: m.model_id, date, totals: m.totals, priced_as: m.priced_as });
    groups.set(base, g);
  }
  const big = (t: WireTotals) => BigInt(t.billable_total_tokens ?? '0');
  const byBillable = (a: { totals: WireTotals }, b: { totals: WireTotals }) =>
    big(a.totals) === big(b.totals) ? 0 : big(a.totals) > big(b.totals) ? -1 : 1;
  for (const g of groups.values()) g.variants.sort(byBillable);
  return [...groups.values()].sort(byBillable);
}
