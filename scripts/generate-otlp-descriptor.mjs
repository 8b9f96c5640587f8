/* global process, URL */
/**
 * @fileoverview Generates src/otlp/otlp-descriptor.json, the protobufjs reflection descriptor of the
 * OTLP collector services, from the opentelemetry-proto definitions (one-off, when the schema moves):
 * `node scripts/generate-otlp-descriptor.mjs <opentelemetry-proto checkout>`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';

const base = process.argv[2];
if (!base) throw new Error('usage: node scripts/generate-otlp-descriptor.mjs <opentelemetry-proto checkout>');
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(base, target);
await root.load(
  ['logs', 'metrics', 'trace'].map((s) => `opentelemetry/proto/collector/${s}/v1/${s}_service.proto`),
  { keepCase: false },
);
root.resolveAll();
writeFileSync(new URL('../src/otlp/otlp-descriptor.json', import.meta.url), JSON.stringify(root.toJSON()) + '\n');
