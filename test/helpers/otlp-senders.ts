/**
 * @fileoverview Real OTLP exports for the receiver's tests and bench: the OpenTelemetry JS SDK's
 * own providers and OTLP/HTTP exporters (protobuf and JSON), shaped like each agent's export.
 */
import type { Attributes } from '@opentelemetry/api';
import { OTLPLogExporter as LogsJson } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as LogsProto } from '@opentelemetry/exporter-logs-otlp-proto';
import {
  AggregationTemporalityPreference,
  OTLPMetricExporter as MetricsJson,
} from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as MetricsProto } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as TracesProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Target {
  base: string;
  token: string;
  json?: boolean;
  gzip?: boolean;
}

function exporterOptions(target: Target, signal: string) {
  return {
    url: `${target.base}/v1/${signal}`,
    headers: { Authorization: `Bearer ${target.token}` },
    compression: target.gzip ? ('gzip' as never) : ('none' as never),
  };
}

/**
 * Emits log events and flushes them: Claude Code's as Claude Code shapes them (below), the others
 * with the name in `event.name` (as Codex and Gemini CLI do) and as the record's event name.
 */
export async function sendEvents(
  target: Target,
  serviceName: string,
  events: Array<{ name: string; at: number; attributes: Attributes }>,
): Promise<void> {
  const options = exporterOptions(target, 'logs');
  const exporter = target.json ? new LogsJson(options) : new LogsProto(options);
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': '1.0.0' }),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  if (serviceName === 'claude-code') {
    // As Claude Code emits them (its bundled cli.js, 2.0.x): the full name as the body, the name
    // without `claude_code.` as `event.name`, every count as a decimal string, no event name.
    const logger = provider.getLogger('com.anthropic.claude_code.events');
    for (const e of events) {
      const attributes: Attributes = {
        'event.name': e.name.replace(/^claude_code\./, ''),
        'event.timestamp': new Date(e.at).toISOString(),
      };
      for (const [key, value] of Object.entries(e.attributes))
        attributes[key] = typeof value === 'number' ? String(value) : value;
      logger.emit({ body: e.name, timestamp: e.at, attributes });
    }
  } else {
    const logger = provider.getLogger(serviceName);
    for (const e of events)
      logger.emit({ eventName: e.name, timestamp: e.at, attributes: { 'event.name': e.name, ...e.attributes } });
  }
  await provider.forceFlush();
  await provider.shutdown();
}

/** A counter export like Gemini CLI's and Qwen Code's (cumulative unless told): one provider is one series start. */
export function counterSender(target: Target, serviceName: string, metric: string, delta = false) {
  const options = {
    ...exporterOptions(target, 'metrics'),
    temporalityPreference: delta ? AggregationTemporalityPreference.DELTA : AggregationTemporalityPreference.CUMULATIVE,
  };
  const exporter = target.json ? new MetricsJson(options) : new MetricsProto(options);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    readers: [reader],
  });
  const counter = provider.getMeter(serviceName).createCounter(metric, { unit: 'token' });
  return {
    add: (value: number, attributes: Attributes) => counter.add(value, attributes),
    flush: () => reader.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** Copilot CLI's `chat <model>` spans with gen_ai.usage attributes. */
export async function sendChatSpans(
  target: Target,
  spans: Array<{ model: string; start: number; end: number; attributes: Attributes }>,
): Promise<void> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'github-copilot-cli' }),
    spanProcessors: [new SimpleSpanProcessor(new TracesProto(exporterOptions(target, 'traces')))],
  });
  const tracer = provider.getTracer('copilot');
  for (const s of spans) {
    const span = tracer.startSpan(`chat ${s.model}`, { startTime: s.start, attributes: s.attributes });
    span.end(s.end);
  }
  await provider.forceFlush();
  await provider.shutdown();
}
