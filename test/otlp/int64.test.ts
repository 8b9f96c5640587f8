/**
 * @fileoverview int64 fields as the receiver decodes them from protobuf (Long objects) and from
 * JSON (decimal strings), read as exact bigints below and beyond 2^53, and as counts only from 0
 * to 10^12.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import descriptor from '../../src/otlp/otlp-descriptor.json' with { type: 'json' };
import { countOf } from '../../src/otlp/attributes.js';
import { decodeRequest, int64BigInt, type Int64 } from '../../src/otlp/proto.js';

const Metrics = protobuf.Root.fromJSON(descriptor as protobuf.INamespace).lookupType(
  'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest',
);

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

  it('answers 0 for an absent or malformed value', () => {
    expect(int64BigInt(undefined)).toBe(0n);
    expect(int64BigInt(null)).toBe(0n);
    expect(int64BigInt('x')).toBe(0n);
    expect(int64BigInt(Number.NaN)).toBe(0n);
  });
});
