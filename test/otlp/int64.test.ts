/**
 * @fileoverview int64 fields as the receiver decodes them from protobuf (Long objects) and from
 * JSON (decimal strings), read as exact bigints below and beyond 2^53, and as counts only from 0
 * to 10^12; nanosecond times as exact milliseconds, so a time 1 ns before a half-hour lands in the
 * half-hour it belongs to.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import descriptor from '../../src/otlp/otlp-descriptor.json' with { type: 'json' };
import { HALF_HOUR_MS } from '../../src/domain/calendar.js';
import { countOf } from '../../src/otlp/attributes.js';
import { Extracted, extractLogs, extractMetrics } from '../../src/otlp/extract.js';
import { decodeRequest, int64BigInt, int64Millis, type Int64 } from '../../src/otlp/proto.js';

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const Metrics = root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest');
const Logs = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');

function encoded(type: protobuf.Type, body: Record<string, unknown>, encoding: 'protobuf' | 'json'): Buffer {
  return encoding === 'protobuf'
    ? Buffer.from(type.encode(type.fromObject(body)).finish())
    : Buffer.from(JSON.stringify(body));
}

/** 2025-11-29T00:00:00Z, a half-hour's start, in ns. */
const BOUNDARY_NS = 1_764_374_400_000_000_000n;
const BOUNDARY_MS = Number(BOUNDARY_NS / 1_000_000n);

/** Each value as a gauge point's `asInt` and `timeUnixNano`, encoded and decoded again as the receiver does. */
function decodedInts(values: string[], encoding: 'protobuf' | 'json'): Array<{ asInt: Int64; time: Int64 }> {
  const body = {
    resourceMetrics: [
      {
        scopeMetrics: [
          {
            metrics: [{ name: 'm', gauge: { dataPoints: values.map((v) => ({ asInt: v, timeUnixNano: v })) } }],
          },
        ],
      },
    ],
  };
  const bytes =
    encoding === 'protobuf'
      ? Buffer.from(Metrics.encode(Metrics.fromObject(body)).finish())
      : Buffer.from(JSON.stringify(body));
  const decoded = decodeRequest('metrics', encoding, bytes) as {
    resourceMetrics: Array<{
      scopeMetrics: Array<{ metrics: Array<{ gauge: { dataPoints: Array<{ asInt: Int64; timeUnixNano: Int64 }> } }> }>;
    }>;
  };
  const points = decoded.resourceMetrics[0]?.scopeMetrics[0]?.metrics[0]?.gauge.dataPoints ?? [];
  return points.map((p) => ({ asInt: p.asInt, time: p.timeUnixNano }));
}

const VALUES = ['0', '5', '1000000000000', '9007199254740993', '1764374400000000123', '9223372036854775807'];

describe('int64 values of a decoded export', () => {
  for (const encoding of ['protobuf', 'json'] as const) {
    it(`are exact bigints (${encoding}), signed and unsigned, below and beyond 2^53`, () => {
      const read = decodedInts([...VALUES, '-9223372036854775808', '-5'], encoding);
      expect(read.map((p) => int64BigInt(p.asInt))).toEqual([...VALUES.map(BigInt), -9223372036854775808n, -5n]);
      // timeUnixNano is a fixed64 (unsigned).
      expect(read.slice(0, VALUES.length).map((p) => int64BigInt(p.time))).toEqual(VALUES.map(BigInt));
    });

    it(`are counts only when whole and from 0 to 10^12 (${encoding})`, () => {
      const read = decodedInts(['1000000000000', '1000000000001', '9007199254740993', '-1'], encoding);
      expect(read.map((p) => countOf({ value: 'intValue', intValue: p.asInt }))).toEqual([
        1_000_000_000_000n,
        null,
        null,
        null,
      ]);
    });
  }

  for (const encoding of ['protobuf', 'json'] as const) {
    it(`times are exact milliseconds, rounded down (${encoding})`, () => {
      // Random 64-bit values and values a few ns around ms and half-hour boundaries.
      let seed = 0x2545f491;
      const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) * 2 ** 32 + seed) % 2 ** 32;
      const values: bigint[] = [0n, 999_999n, 1_000_000n, 2n ** 53n + 1n, 2n ** 64n - 1n];
      for (const d of [-1n, 0n, 1n, -256n, 255n, -1_000_001n]) values.push(BOUNDARY_NS + d);
      for (let i = 0; i < 200; i++) values.push((BigInt(random()) << 32n) | BigInt(random()));
      const read = decodedInts(
        values.map((v) => v.toString()),
        encoding,
      );
      expect(read.map((p) => int64Millis(p.time))).toEqual(values.map((v) => Number(v / 1_000_000n)));
    });

    it(`place a log record and a data point 1 ns before a half-hour in the half-hour before (${encoding})`, () => {
      const time = (BOUNDARY_NS - 1n).toString();
      const logs = {
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: time,
                    body: { stringValue: 'claude_code.api_request' },
                    attributes: [
                      { key: 'request_id', value: { stringValue: 'r1' } },
                      { key: 'input_tokens', value: { intValue: '5' } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      };
      const metrics = {
        resourceMetrics: [
          {
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: 'qwen-code.token.usage',
                    sum: {
                      aggregationTemporality: 2,
                      dataPoints: [
                        {
                          startTimeUnixNano: time,
                          timeUnixNano: time,
                          asInt: '9',
                          attributes: [{ key: 'type', value: { stringValue: 'input' } }],
                        },
                      ],
                    },
                  },
                ],
              },
            ],
          },
        ],
      };
      const found = new Extracted();
      extractLogs(decodeRequest('logs', encoding, encoded(Logs, logs, encoding)) as never, found);
      extractMetrics(decodeRequest('metrics', encoding, encoded(Metrics, metrics, encoding)) as never, found);
      const halfHour = (at: number | undefined) => Math.floor((at ?? 0) / HALF_HOUR_MS) * HALF_HOUR_MS;
      expect(found.requests.map((r) => halfHour(r.at))).toEqual([BOUNDARY_MS - HALF_HOUR_MS]);
      expect(found.points.map((p) => [halfHour(p.at), p.startNanos, p.value])).toEqual([
        [BOUNDARY_MS - HALF_HOUR_MS, time, 9n],
      ]);
    });
  }

  it('reads times as milliseconds exactly from numbers and decimal texts too', () => {
    expect(int64Millis('1764374399999999999')).toBe(BOUNDARY_MS - 1);
    expect(int64Millis(' 1764374400000000000 ')).toBe(BOUNDARY_MS);
    expect(int64Millis(9_007_199_254_740_991)).toBe(9_007_199_254);
    expect(int64Millis(1_999_999)).toBe(1);
    expect(int64Millis(undefined)).toBe(0);
    expect(int64Millis('x')).toBe(0);
    expect(int64Millis(-5)).toBeLessThanOrEqual(0);
  });

  it('answers 0 for an absent or malformed value', () => {
    expect(int64BigInt(undefined)).toBe(0n);
    expect(int64BigInt(null)).toBe(0n);
    expect(int64BigInt('x')).toBe(0n);
    expect(int64BigInt(Number.NaN)).toBe(0n);
  });
});
