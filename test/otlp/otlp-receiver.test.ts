/**
 * @fileoverview The OTLP receiver end to end: real exports from the OpenTelemetry JS SDK's OTLP/HTTP
 * exporters (protobuf and JSON, gzip or not), shaped like each agent's, stored to the token as the
 * CLI's parsers read the same requests; retries once, cumulative resets, partial success,
 * 400/401/413/429 and one channel per (device, source).
 */
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { claudeCounts } from '../../src/cli/parsers/claude.js';
import { codexCounts } from '../../src/cli/parsers/codex.js';
import { copilotCounts } from '../../src/cli/parsers/copilot.js';
import { geminiFamilyCounts } from '../../src/cli/parsers/gemini-usage.js';
import type { Counts } from '../../src/cli/usage.js';
import { listDeviceBuckets } from '../helpers/stored-usage.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { counterSender, sendChatSpans, sendEvents, type Target } from '../helpers/otlp-senders.js';

let t: TestApp;
let user: TestUser;
let base: string;
// The SDK stamps metric points with the real time: the app's clock starts at the real now.
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const AT = NOW - 20 * 60_000;

beforeAll(async () => {
  // A device may send 30 exports (the manual clock never refills its bucket); the 429 test spends them.
  t = await createTestApp({ clock: new ManualClock(NOW), env: { INGEST_BURST: '30', INGEST_RATE_PER_MINUTE: '1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  user = await signUp(t);
});
afterAll(async () => t?.close());

async function target(extra: Partial<Target> = {}): Promise<Target & { deviceId: string }> {
  const device = await issueDevice(t, user, `otlp-${Math.random().toString(36).slice(2, 8)}`);
  return { base, token: device.token, deviceId: device.deviceId, ...extra };
}

/** A device's stored columns of one source, summed over its buckets, as the CLI's Counts. */
async function stored(deviceId: string, source: string): Promise<Counts & { models: string[] }> {
  const rows = (await listDeviceBuckets(t.db.kysely, deviceId)).filter((b) => b.source === source);
  const sum = (k: 'input' | 'cached_input' | 'output' | 'reasoning' | 'total') =>
    rows.reduce((s, b) => s + Number(b[k]), 0);
  return {
    input: sum('input'),
    cached: sum('cached_input'),
    output: sum('output'),
    reasoning: sum('reasoning'),
    total: sum('total'),
    models: [...new Set(rows.map((b) => b.model))],
  };
}

const add = (a: Counts, b: Counts): Counts => ({
  input: a.input + b.input,
  cached: a.cached + b.cached,
  output: a.output + b.output,
  reasoning: a.reasoning + b.reasoning,
  total: a.total + b.total,
});

describe('agents, counted as their CLI parsers count', () => {
  it('Claude Code: api_request events (protobuf, gzip), one per request_id', async () => {
    const to = await target({ gzip: true });
    const requests = [
      {
        request_id: 'req_1',
        input_tokens: 12,
        output_tokens: 340,
        cache_read_tokens: 51200,
        cache_creation_tokens: 900,
      },
      { request_id: 'req_2', input_tokens: 3, output_tokens: 77, cache_read_tokens: 60000, cache_creation_tokens: 0 },
    ];
    const event = (r: (typeof requests)[number], at: number) => ({
      name: 'claude_code.api_request',
      at,
      attributes: { ...r, model: 'claude-opus-4-5', 'session.id': 's1', cost_usd: 0.1 },
    });
    await sendEvents(to, 'claude-code', [event(requests[0]!, AT), event(requests[1]!, AT + 1000)]);
    // The retried export (same request ids) counts once.
    await sendEvents(to, 'claude-code', [event(requests[1]!, AT + 1000)]);
    const expected = requests
      .map((r) =>
        claudeCounts({
          input_tokens: r.input_tokens,
          output_tokens: r.output_tokens,
          cache_read_input_tokens: r.cache_read_tokens,
          cache_creation_input_tokens: r.cache_creation_tokens,
        }),
      )
      .reduce(add);
    expect(await stored(to.deviceId, 'claude')).toEqual({ ...expected, models: ['claude-opus-4-5'] });
  });

  it('Codex: completed-response sse events (JSON); Gemini CLI: api_response events, a retried export once', async () => {
    const codex = await target({ json: true });
    const usage = {
      input_token_count: 182340,
      cached_token_count: 150016,
      output_token_count: 2210,
      reasoning_token_count: 1408,
    };
    const sse = (kind: string) => ({
      name: 'codex.sse_event',
      at: AT,
      attributes: { 'event.kind': kind, model: 'gpt-5-codex', 'conversation.id': 'c1', ...usage },
    });
    await sendEvents(codex, 'codex_cli_rs', [sse('response.created'), sse('response.completed')]);
    const u = usage;
    const codexExpected = codexCounts({
      input: u.input_token_count,
      cached: u.cached_token_count,
      output: u.output_token_count,
      reasoning: u.reasoning_token_count,
      total: u.input_token_count + u.output_token_count,
    });
    expect(await stored(codex.deviceId, 'codex')).toEqual({ ...codexExpected, models: ['gpt-5-codex'] });

    const gemini = await target();
    const response = {
      name: 'gemini_cli.api_response',
      at: AT,
      attributes: {
        model: 'gemini-2.5-pro',
        input_token_count: 9000,
        cached_content_token_count: 4000,
        output_token_count: 300,
        thoughts_token_count: 120,
        tool_token_count: 5,
        total_token_count: 9425,
        prompt_id: 'p1',
      },
    };
    await sendEvents(gemini, 'gemini-cli', [response]);
    await sendEvents(gemini, 'gemini-cli', [response]);
    const a = response.attributes;
    const geminiExpected = geminiFamilyCounts({
      input: a.input_token_count,
      cached: a.cached_content_token_count,
      output: a.output_token_count,
      thoughts: a.thoughts_token_count,
      tool: a.tool_token_count,
      total: a.total_token_count,
    });
    expect(await stored(gemini.deviceId, 'gemini')).toEqual({ ...geminiExpected, models: ['gemini-2.5-pro'] });
  });

  it('Qwen Code: cumulative counters count increments; a new start time starts over', async () => {
    const to = await target();
    const first = counterSender(to, 'qwen-code', 'qwen-code.token.usage');
    const attrs = (type: string) => ({ type, model: 'qwen3-coder-plus', 'session.id': 'q1' });
    first.add(1000, attrs('input'));
    first.add(400, attrs('cache'));
    first.add(50, attrs('output'));
    await first.flush();
    first.add(500, attrs('input'));
    await first.flush();
    await first.flush(); // the same cumulative values again: nothing new
    await first.shutdown();
    const second = counterSender(to, 'qwen-code', 'qwen-code.token.usage'); // a restarted process
    second.add(200, attrs('input'));
    second.add(10, attrs('thought'));
    await second.flush();
    await second.shutdown();
    const expected = geminiFamilyCounts({ input: 1700, cached: 400, output: 50, thoughts: 10, tool: 0, total: 0 });
    expect(await stored(to.deviceId, 'qwen')).toEqual({ ...expected, models: ['qwen3-coder-plus'] });
  });

  it('Qwen Code: delta points of one export summed per half-hour, model and type; unknown types tallied per point', async () => {
    const to = await target();
    const point = (type: string, model: string, value: number, at = AT) => ({
      attributes: [kv('type', type), kv('model', model)],
      startTimeUnixNano: nanos(at - 60_000),
      timeUnixNano: nanos(at),
      asInt: String(value),
    });
    const body = {
      resourceMetrics: [
        {
          resource: { attributes: [kv('service.name', 'qwen-code')] },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: 'qwen-code.token.usage',
                  sum: {
                    aggregationTemporality: 1,
                    isMonotonic: true,
                    dataPoints: [
                      point('input', 'qwen-a', 100),
                      point('weird', 'qwen-a', 5),
                      point('input', 'qwen-a', 50),
                      point('output', 'qwen-a', 7),
                      point('cache', 'qwen-a', 30),
                      point('input', 'qwen-b', 0),
                      point('weird', 'qwen-a', 5),
                      point('input', 'qwen-a', 9, AT - 30 * 60_000),
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    };
    const res = await post(to.token, '/v1/metrics', JSON.stringify(body));
    expect(res.json()).toEqual({
      partialSuccess: {
        rejectedDataPoints: 2,
        errorMessage: '2 ignored: the qwen-code.token.usage point has no known type attribute',
      },
    });
    const expected = geminiFamilyCounts({ input: 159, cached: 30, output: 7, thoughts: 0, tool: 0, total: 0 });
    expect(await stored(to.deviceId, 'qwen')).toEqual({ ...expected, models: ['qwen-a'] });
    const rows = (await listDeviceBuckets(t.db.kysely, to.deviceId)).filter((b) => b.source === 'qwen');
    expect(rows.length).toBe(2);
  });

  it('Copilot CLI: chat spans, one per gen_ai.response.id', async () => {
    const to = await target();
    const span = (id: string, prompt: number, read: number, out: number) => ({
      model: 'gpt-5',
      start: AT,
      end: AT + 2000,
      attributes: {
        'gen_ai.response.id': id,
        'gen_ai.response.model': 'gpt-5',
        'gen_ai.usage.input_tokens': prompt,
        'gen_ai.usage.cache_read.input_tokens': read,
        'gen_ai.usage.output_tokens': out,
      },
    });
    await sendChatSpans(to, [span('r1', 5000, 4096, 120), span('r2', 800, 0, 40), span('r1', 5000, 4096, 120)]);
    const expected = add(
      copilotCounts({ prompt_tokens: 5000, cache_read_input_tokens: 4096, completion_tokens: 120 }),
      copilotCounts({ prompt_tokens: 800, cache_read_input_tokens: 0, completion_tokens: 40 }),
    );
    expect(await stored(to.deviceId, 'copilot')).toEqual({ ...expected, models: ['gpt-5'] });
  });
});

const nanos = (ms: number) => `${ms}000000`;
const kv = (key: string, value: string | number) => ({
  key,
  value: typeof value === 'string' ? { stringValue: value } : { intValue: String(value) },
});
function claudeLogs(records: Array<{ name: string; at: number; attrs: Record<string, string | number> }>) {
  return {
    resourceLogs: [
      {
        resource: { attributes: [kv('service.name', 'claude-code')] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events' },
            // Claude Code's shape: the full name as body, `event.name` without its prefix.
            logRecords: records.map((r) => ({
              timeUnixNano: nanos(r.at),
              body: { stringValue: r.name },
              attributes: [
                kv('event.name', r.name.replace(/^claude_code\./, '')),
                ...Object.entries(r.attrs).map(([k, v]) => kv(k, v)),
              ],
            })),
          },
        ],
      },
    ],
  };
}
const post = (token: string | undefined, url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}), ...headers },
    payload,
  });

describe('the OTLP/HTTP protocol', () => {
  it('answers partial_success for what it does not count, in the request encoding', async () => {
    const to = await target();
    const body = claudeLogs([
      { name: 'claude_code.user_prompt', at: AT, attrs: { prompt_length: 12 } },
      { name: 'claude_code.api_request', at: Date.UTC(2019, 0, 1), attrs: { request_id: 'old', input_tokens: 5 } },
      { name: 'claude_code.api_request', at: AT, attrs: { request_id: 'bad', input_tokens: -4 } },
      { name: 'claude_code.api_request', at: AT, attrs: { request_id: 'ok', input_tokens: 5, model: 'claude-x' } },
    ]);
    const res = await post(to.token, '/v1/logs', JSON.stringify(body));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const answer = res.json<{ partialSuccess: { rejectedLogRecords: number; errorMessage: string } }>();
    expect(answer.partialSuccess.rejectedLogRecords).toBe(3);
    expect(answer.partialSuccess.errorMessage).toMatch(/not a token usage event/);
    expect(answer.partialSuccess.errorMessage).toMatch(/outside/);
    expect((await stored(to.deviceId, 'claude')).total).toBe(5);
    // Everything counted: an empty partial_success is left out.
    const clean = await post(to.token, '/v1/logs', JSON.stringify(claudeLogs([])));
    expect(clean.json()).toEqual({});
  });

  it('refuses bad bodies (400 Status), no or bad tokens (401), oversized gzip (413), and over-rate devices (429)', async () => {
    const to = await target();
    const garbage = await post(to.token, '/v1/metrics', Buffer.from([0xff, 0xff, 0xff, 0x0f]), {
      'content-type': 'application/x-protobuf',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.headers['content-type']).toMatch(/^application\/x-protobuf/);
    const notJson = await post(to.token, '/v1/logs', '{"resourceLogs": [');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json<{ code: number }>().code).toBe(3);
    expect((await post(undefined, '/v1/logs', '{}')).statusCode).toBe(401);
    expect((await post('tt_dev_not-a-token', '/v1/logs', '{}')).statusCode).toBe(401);
    expect((await post(to.token, '/v1/logs', 'x', { 'content-type': 'text/plain' })).statusCode).toBe(415);
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 32));
    expect((await post(to.token, '/v1/logs', bomb, { 'content-encoding': 'gzip' })).statusCode).toBe(413);
    const gz = await post(to.token, '/v1/logs', gzipSync(JSON.stringify(claudeLogs([]))), {
      'content-encoding': 'gzip',
    });
    expect(gz.statusCode).toBe(200);
    let last = gz;
    for (let i = 0; i < 40 && last.statusCode !== 429; i++) last = await post(to.token, '/v1/logs', '{}');
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps one channel per (device, source)', async () => {
    const cliFirst = await target();
    const hour = new Date(Math.floor(AT / 1_800_000) * 1_800_000).toISOString();
    const up = await ingest(t, cliFirst.token, [{ hour_start: hour, source: 'claude', model: 'm', total_tokens: 7 }]);
    expect(up.statusCode).toBe(200);
    const refused = await post(
      cliFirst.token,
      '/v1/logs',
      JSON.stringify(
        claudeLogs([{ name: 'claude_code.api_request', at: AT, attrs: { request_id: 'x', input_tokens: 9 } }]),
      ),
    );
    expect(refused.json<{ partialSuccess: { errorMessage: string } }>().partialSuccess.errorMessage).toMatch(
      /through the tokentally CLI/,
    );
    expect((await stored(cliFirst.deviceId, 'claude')).total).toBe(7);

    const otlpFirst = await target();
    await post(
      otlpFirst.token,
      '/v1/logs',
      JSON.stringify(
        claudeLogs([{ name: 'claude_code.api_request', at: AT, attrs: { request_id: 'y', input_tokens: 9 } }]),
      ),
    );
    const skipped = await ingest(t, otlpFirst.token, [
      { hour_start: hour, source: 'claude', model: 'm', total_tokens: 7 },
      { hour_start: hour, source: 'codex', model: 'm', total_tokens: 3 },
    ]);
    expect(skipped.json()).toMatchObject({ inserted: 1, skipped: 1 });
    expect((await stored(otlpFirst.deviceId, 'claude')).total).toBe(9);
    // The Devices page shows each source's channel.
    const list = await t.app.inject({
      method: 'GET',
      url: '/functions/svc-devices',
      headers: bearer(user.accessToken),
    });
    const entry = list.json<{ devices: Array<{ device_id: string; channels: unknown }> }>().devices;
    expect(entry.find((d) => d.device_id === otlpFirst.deviceId)?.channels).toEqual([
      { source: 'claude', channel: 'otlp' },
      { source: 'codex', channel: 'cli' },
    ]);
  });
});
