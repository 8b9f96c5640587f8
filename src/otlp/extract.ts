/**
 * @fileoverview Walks a decoded OTLP export request into what the receiver counts: per-request
 * usage (log events, Copilot spans) and token counter points (Qwen Code), each with its instant;
 * everything else is tallied as ignored, with its reason, for the answer's partial_success.
 */
import { createHash } from 'node:crypto';
import { agentOf, claudeRequest, codexResponse, copilotChat, geminiResponse, type Columns } from './agents.js';
import {
  Attributes,
  canonical,
  doubleCount,
  intCount,
  type AnyValue,
  type KeyValue,
  type Resource,
  type Scope,
} from './attributes.js';
import { int64BigInt, int64Millis, type Int64 } from './proto.js';

/** One counted request: its source, model as reported, dedupe id, instant (ms) and columns. */
export interface RequestUsage {
  source: string;
  model: string | undefined;
  id: string;
  at: number;
  columns: Columns;
}

/** One point of a token counter series. */
export interface CounterPoint {
  source: string;
  model: string | undefined;
  type: string | undefined;
  /** The series' key and start time (cumulative points only; '' for delta points). */
  seriesKey: string;
  startNanos: string;
  cumulative: boolean;
  at: number;
  value: bigint;
}

export class Extracted {
  readonly requests: RequestUsage[] = [];
  readonly points: CounterPoint[] = [];
  readonly ignored = new Map<string, number>();
  ignore(reason: string, n = 1): void {
    this.ignored.set(reason, (this.ignored.get(reason) ?? 0) + n);
  }
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);

function serviceName(resource: Resource | null | undefined): string | undefined {
  return Attributes.of(resource?.attributes).text('service.name');
}

/** An instant in ms from a record's nanosecond times (the first one set), exact (int64Millis). */
function instant(nanos: Int64, otherwise: Int64 = 0): number {
  const at = int64Millis(nanos);
  return at > 0 ? at : Math.max(int64Millis(otherwise), 0);
}

interface LogRecord {
  timeUnixNano?: Int64;
  observedTimeUnixNano?: Int64;
  eventName?: string | null;
  body?: AnyValue | null;
  attributes?: KeyValue[] | null;
}
interface LogsRequest {
  resourceLogs?: Array<{
    resource?: Resource | null;
    scopeLogs?: Array<{ logRecords?: LogRecord[] | null }> | null;
  }> | null;
}

const EVENTS: Record<string, (a: Attributes) => ReturnType<typeof claudeRequest>> = {
  'claude_code.api_request': claudeRequest,
  'codex.sse_event': codexResponse,
  'codex.websocket_event': codexResponse,
  'gemini_cli.api_response': (a) => geminiResponse(a, 'gemini'),
};

/** The prefix of an agent's event names, for records that name an event without it. */
const EVENT_PREFIX: Partial<Record<NonNullable<ReturnType<typeof agentOf>>, string>> = {
  claude: 'claude_code.',
  gemini: 'gemini_cli.',
  codex: 'codex.',
};

/**
 * A log record's event name: the first of its event name, its `event.name` attribute and its text
 * body that names a counted event, else the first of them with its agent's prefix. Claude Code
 * emits `body: "claude_code.api_request"` with `event.name: "api_request"`; Gemini CLI the full
 * name in `event.name` and a sentence as body; the OpenTelemetry event API sets the event name.
 */
function eventNameOf(record: LogRecord, attrs: Attributes, agent: ReturnType<typeof agentOf>): string {
  const body = record.body?.value === 'stringValue' ? record.body.stringValue : undefined;
  const names = [record.eventName, attrs.text('event.name'), body];
  for (const name of names) if (name && EVENTS[name]) return name;
  const prefix = agent === undefined ? undefined : EVENT_PREFIX[agent];
  if (prefix !== undefined) for (const name of names) if (name && EVENTS[prefix + name]) return prefix + name;
  return '';
}

export function extractLogs(request: LogsRequest, into: Extracted): void {
  for (const rl of request.resourceLogs ?? []) {
    const resourceText = canonical(rl.resource?.attributes);
    const agent = agentOf(serviceName(rl.resource));
    for (const sl of rl.scopeLogs ?? []) {
      for (const record of sl.logRecords ?? []) {
        const attrs = Attributes.of(record.attributes);
        const map = EVENTS[eventNameOf(record, attrs, agent)];
        if (!map) {
          into.ignore('not a token usage event');
          continue;
        }
        const mapped = map(attrs);
        if (typeof mapped === 'string') {
          into.ignore(mapped);
          continue;
        }
        const at = instant(record.timeUnixNano, record.observedTimeUnixNano);
        // Without a request id, a retried export is recognised by the record itself.
        const id =
          mapped.id ??
          `${mapped.source}#${hash(`${resourceText}\u0001${String(record.timeUnixNano ?? '')}\u0001${canonical(record.attributes)}`)}`;
        into.requests.push({ source: mapped.source, model: mapped.model, id, at, columns: mapped.columns });
      }
    }
  }
}

interface Span {
  name?: string | null;
  endTimeUnixNano?: Int64;
  startTimeUnixNano?: Int64;
  attributes?: KeyValue[] | null;
}
interface TracesRequest {
  resourceSpans?: Array<{ resource?: Resource | null; scopeSpans?: Array<{ spans?: Span[] | null }> | null }> | null;
}

export function extractTraces(request: TracesRequest, into: Extracted): void {
  for (const rs of request.resourceSpans ?? []) {
    const copilot = agentOf(serviceName(rs.resource)) === 'copilot';
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        if (!copilot || !(span.name ?? '').startsWith('chat')) {
          into.ignore('not a Copilot CLI chat span');
          continue;
        }
        const mapped = copilotChat(Attributes.of(span.attributes));
        if (typeof mapped === 'string') {
          into.ignore(mapped);
          continue;
        }
        const id =
          mapped.id ?? `copilot#${hash(`${String(span.startTimeUnixNano)}\u0001${canonical(span.attributes)}`)}`;
        const at = instant(span.endTimeUnixNano, span.startTimeUnixNano);
        into.requests.push({ source: mapped.source, model: mapped.model, id, at, columns: mapped.columns });
      }
    }
  }
}

interface NumberPoint {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64;
  timeUnixNano?: Int64;
  asInt?: Int64;
  asDouble?: number | null;
  /** Which of asInt / asDouble is set. */
  value?: string | null;
}
interface Metric {
  name?: string | null;
  sum?: { dataPoints?: NumberPoint[] | null; aggregationTemporality?: number | null } | null;
  gauge?: { dataPoints?: unknown[] | null } | null;
  histogram?: { dataPoints?: unknown[] | null } | null;
  exponentialHistogram?: { dataPoints?: unknown[] | null } | null;
  summary?: { dataPoints?: unknown[] | null } | null;
}
interface MetricsRequest {
  resourceMetrics?: Array<{
    resource?: Resource | null;
    scopeMetrics?: Array<{ scope?: Scope | null; metrics?: Metric[] | null }> | null;
  }> | null;
}

/** Metrics whose tokens are counted from the same agent's events instead (docs/otlp.md). */
const COUNTED_FROM_EVENTS: Record<string, string> = {
  'claude_code.token.usage': 'claude_code.token.usage is counted from the claude_code.api_request events (logs)',
  'codex.turn.token_usage': 'codex.turn.token_usage is counted from the codex.sse_event events (logs)',
  'gemini_cli.token.usage': 'gemini_cli.token.usage is counted from the gemini_cli.api_response events (logs)',
};

const CUMULATIVE = 2;

function pointsOf(metric: Metric): number {
  const m = metric.sum ?? metric.gauge ?? metric.histogram ?? metric.exponentialHistogram ?? metric.summary;
  return m?.dataPoints?.length ?? 0;
}

export function extractMetrics(request: MetricsRequest, into: Extracted): void {
  for (const rm of request.resourceMetrics ?? []) {
    let resourceTextRead: string | undefined;
    const resourceText = () => (resourceTextRead ??= canonical(rm.resource?.attributes));
    for (const sm of rm.scopeMetrics ?? []) {
      const scopeText = `${sm.scope?.name ?? ''}@${sm.scope?.version ?? ''}`;
      for (const metric of sm.metrics ?? []) {
        const name = metric.name ?? '';
        if (name !== 'qwen-code.token.usage') {
          into.ignore(COUNTED_FROM_EVENTS[name] ?? 'not a token usage metric', pointsOf(metric));
          continue;
        }
        if (!metric.sum) {
          into.ignore('qwen-code.token.usage is not a sum', pointsOf(metric));
          continue;
        }
        const cumulative = metric.sum.aggregationTemporality === CUMULATIVE;
        for (const point of metric.sum.dataPoints ?? []) {
          const attrs = Attributes.of(point.attributes);
          const value = point.value === 'asInt' ? intCount(point.asInt) : doubleCount(point.asDouble);
          if (value === null) {
            into.ignore('the point value is not a whole count from 0 to 10^12');
            continue;
          }
          // Only a cumulative series has state to find again; a delta point counts as it is.
          const seriesKey = cumulative
            ? hash(`${resourceText()}\u0001${scopeText}\u0001${name}\u0001${canonical(point.attributes)}`)
            : '';
          into.points.push({
            source: 'qwen',
            model: attrs.text('model'),
            type: attrs.text('type'),
            seriesKey,
            startNanos: cumulative ? int64BigInt(point.startTimeUnixNano).toString() : '',
            cumulative,
            at: instant(point.timeUnixNano),
            value,
          });
        }
      }
    }
  }
}
