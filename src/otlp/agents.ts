/**
 * @fileoverview Each agent's OTLP usage mapped to the `source` and the column meaning of the CLI
 * parser of that agent (docs/wire-format.md), so a request counted through OTLP equals the same
 * request read from its log. Pure; docs/otlp.md lists what each agent sends and what is counted.
 */
import type { Attributes } from './attributes.js';

/** The five stored columns of one counted request (wire meaning of its source). */
export interface Columns {
  input: bigint;
  cached: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
}

/** A per-request event mapped, or the reason it is not counted. */
export type Mapped = { source: string; model: string | undefined; id: string | undefined; columns: Columns } | string;

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** Reads the named counts; a reason when one is malformed, or when none is present. */
function counts<K extends string>(attrs: Attributes, keys: Record<K, string>): Record<K, bigint> | string {
  const out = {} as Record<K, bigint>;
  let any = false;
  for (const name of Object.keys(keys) as K[]) {
    const value = attrs.count(keys[name]);
    if (value === null) return `${keys[name]} is not a whole count from 0 to 10^12`;
    if (value !== undefined) any = true;
    out[name] = value ?? 0n;
  }
  return any ? out : 'the record carries no token counts';
}

/** Claude Code's `claude_code.api_request` event: disjoint counts, cache writes are input (parser: claudeCounts). */
export function claudeRequest(attrs: Attributes): Mapped {
  const c = counts(attrs, {
    input: 'input_tokens',
    output: 'output_tokens',
    read: 'cache_read_tokens',
    write: 'cache_creation_tokens',
  });
  if (typeof c === 'string') return c;
  const input = c.input + c.write;
  const id = attrs.text('request_id');
  return {
    source: 'claude',
    model: attrs.text('model'),
    id: id === undefined ? undefined : `claude:${id}`,
    columns: { input, cached: c.read, output: c.output, reasoning: 0n, total: input + c.read + c.output },
  };
}

/** Codex's `codex.sse_event` of a completed response: cached ⊂ input, reasoning ⊂ output (parser: codexCounts). */
export function codexResponse(attrs: Attributes): Mapped {
  const kind = attrs.text('event.kind');
  if (kind !== undefined && kind !== 'response.completed') return 'a codex.sse_event other than response.completed';
  const c = counts(attrs, {
    input: 'input_token_count',
    output: 'output_token_count',
    cached: 'cached_token_count',
    reasoning: 'reasoning_token_count',
  });
  if (typeof c === 'string') return c;
  const id = attrs.text('response_id') ?? attrs.text('response.id');
  return {
    source: 'codex',
    model: attrs.text('model'),
    id: id === undefined ? undefined : `codex:${id}`,
    columns: {
      input: c.input,
      cached: min(c.cached, c.input),
      output: c.output,
      reasoning: min(c.reasoning, c.output),
      total: c.input + c.output,
    },
  };
}

/** Gemini CLI's `gemini_cli.api_response` event: made disjoint like the parser (geminiFamilyCounts). */
export function geminiResponse(attrs: Attributes, source: 'gemini' | 'qwen'): Mapped {
  const c = counts(attrs, {
    prompt: 'input_token_count',
    output: 'output_token_count',
    cached: 'cached_content_token_count',
    thoughts: 'thoughts_token_count',
    tool: 'tool_token_count',
    total: 'total_token_count',
  });
  if (typeof c === 'string') return c;
  const cached = min(c.cached, c.prompt);
  const input = c.prompt - cached + c.tool;
  const sum = input + cached + c.output + c.thoughts;
  return {
    source,
    model: attrs.text('model'),
    id: undefined,
    columns: { input, cached, output: c.output, reasoning: c.thoughts, total: max(c.total, sum) },
  };
}

/** A Copilot CLI `chat <model>` span: prompt counts include cache reads (parser: copilotCounts). */
export function copilotChat(attrs: Attributes): Mapped {
  const c = counts(attrs, {
    prompt: 'gen_ai.usage.input_tokens',
    output: 'gen_ai.usage.output_tokens',
    read: 'gen_ai.usage.cache_read.input_tokens',
    write: 'gen_ai.usage.cache_creation.input_tokens',
  });
  if (typeof c === 'string') return c;
  const input = max(0n, c.prompt - c.read) + c.write;
  const id = attrs.text('gen_ai.response.id');
  return {
    source: 'copilot',
    model: attrs.text('gen_ai.response.model') ?? attrs.text('gen_ai.request.model'),
    id: id === undefined ? undefined : `copilot:${id}`,
    columns: { input, cached: c.read, output: c.output, reasoning: 0n, total: input + c.read + c.output },
  };
}

/**
 * The cumulative (or delta) token counter of the Gemini CLI family, counted for Qwen Code (which
 * sends no per-request token event): one `type` per series; an increment of `type` moves these
 * columns (the prompt count includes cached tokens, so a cache increment moves input to cached).
 */
export function qwenCounterColumns(type: string | undefined, increment: bigint): Columns | string {
  switch (type) {
    case 'input':
    case 'tool':
      return { input: increment, cached: 0n, output: 0n, reasoning: 0n, total: increment };
    case 'cache':
      return { input: -increment, cached: increment, output: 0n, reasoning: 0n, total: 0n };
    case 'output':
      return { input: 0n, cached: 0n, output: increment, reasoning: 0n, total: increment };
    case 'thought':
      return { input: 0n, cached: 0n, output: 0n, reasoning: increment, total: increment };
    default:
      return 'the qwen-code.token.usage point has no known type attribute';
  }
}

/** Which agent a resource's service.name is (undefined: none we count). */
export function agentOf(
  serviceName: string | undefined,
): 'claude' | 'codex' | 'gemini' | 'qwen' | 'copilot' | undefined {
  const name = (serviceName ?? '').toLowerCase();
  if (name.startsWith('claude-code')) return 'claude';
  if (name.startsWith('codex')) return 'codex';
  if (name.includes('gemini')) return 'gemini';
  if (name.includes('qwen')) return 'qwen';
  if (name.includes('copilot')) return 'copilot';
  return undefined;
}
