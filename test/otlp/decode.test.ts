/**
 * @fileoverview Binary decoding of export requests: oneof members read through the oneof's name
 * (the last member on the wire wins, as protobuf says), the same as the JSON encoding reads.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import descriptor from '../../src/otlp/otlp-descriptor.json' with { type: 'json' };
import { Attributes } from '../../src/otlp/attributes.js';
import { decodeRequest } from '../../src/otlp/proto.js';

const Logs = protobuf.Root.fromJSON(descriptor as protobuf.INamespace).lookupType(
  'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest',
);

interface Decoded {
  resourceLogs: Array<{
    scopeLogs: Array<{
      logRecords: Array<{ body: { value?: string }; attributes: Array<{ key: string; value: { value?: string } }> }>;
    }>;
  }>;
}

function record(body: unknown, encoding: 'protobuf' | 'json') {
  const bytes =
    encoding === 'protobuf'
      ? Buffer.from(Logs.encode(Logs.fromObject(body as Record<string, unknown>)).finish())
      : Buffer.from(JSON.stringify(body));
  const decoded = decodeRequest('logs', encoding, bytes) as Decoded;
  const r = decoded.resourceLogs[0]?.scopeLogs[0]?.logRecords[0];
  if (!r) throw new Error('no record');
  return r;
}

const request = (attributes: unknown[], body: unknown) => ({
  resourceLogs: [{ scopeLogs: [{ logRecords: [{ body, attributes }] }] }],
});

describe('a decoded export', () => {
  for (const encoding of ['protobuf', 'json'] as const)
    it(`names the member of each oneof that is set (${encoding})`, () => {
      const r = record(
        request(
          [
            { key: 's', value: { stringValue: 'x' } },
            { key: 'i', value: { intValue: 7 } },
            { key: 'd', value: { doubleValue: 1.5 } },
            { key: 'b', value: { boolValue: true } },
            { key: 'none', value: {} },
          ],
          { stringValue: 'claude_code.api_request' },
        ),
        encoding,
      );
      expect(r.body.value).toBe('stringValue');
      expect(r.attributes.map((a) => a.value.value)).toEqual([
        'stringValue',
        'intValue',
        'doubleValue',
        'boolValue',
        undefined,
      ]);
      const attrs = Attributes.of(r.attributes);
      expect([attrs.text('s'), attrs.text('i'), attrs.text('d'), attrs.text('b'), attrs.text('none')]).toEqual([
        'x',
        '7',
        '1.5',
        'true',
        undefined,
      ]);
    });

  it('reads the last member on the wire when a oneof carries two (protobuf)', () => {
    // The encoder writes every member it is given, in field order: string (1), then int (3).
    const r = record(request([{ key: 'k', value: { stringValue: '12', intValue: 40 } }], undefined), 'protobuf');
    expect(r.attributes[0]?.value.value).toBe('intValue');
    expect(Attributes.of(r.attributes).count('k')).toBe(40n);
  });
});
