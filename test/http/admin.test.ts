import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitForUpdate, type Provider } from '@pydantic/genai-prices';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPricingStore } from '../../src/jobs/pricing-store.js';
import { restoreStoredPricing } from '../../src/jobs/pricing-sync.js';
import { createPriceService } from '../../src/pricing/index.js';
import { bearer, ingest, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

const SERVICE = bearer(TEST_SECRETS.SERVICE_ROLE_KEY);
const DAY = 86_400_000;
const prices = createPriceService();
let bundled: Provider[];

/** A local price source serving genai-prices data, an OpenRouter answer and broken answers. */
let source: http.Server;
let base: string;
let downUrl: string;

beforeAll(async () => {
  bundled = JSON.parse(JSON.stringify(await waitForUpdate())) as Provider[];
  const genai = JSON.parse(JSON.stringify(bundled)) as Provider[];
  const gpt5 = genai.find((p) => p.id === 'openai')?.models.find((m) => m.id === 'gpt-5');
  if (!gpt5 || Array.isArray(gpt5.prices)) throw new Error('fixture model missing');
  gpt5.prices = { ...gpt5.prices, input_mtok: 2.5 };
  const openrouter = {
    data: [
      { id: 'openai/gpt-5', pricing: { prompt: '0.000003', completion: '0.00002' } },
      { id: 'openai/gpt-5:free', pricing: { prompt: '0', completion: '0' } },
      { id: 'nobody/unknown-model', pricing: { prompt: '0.000001', completion: '0.000001' } },
    ],
  };
  const bodies: Record<string, string> = {
    '/genai.json': JSON.stringify(genai),
    '/openrouter.json': JSON.stringify(openrouter),
    '/broken.json': '{"not json',
    '/empty.json': '[]',
    '/object.json': '{"hello": 1}',
  };
  source = http.createServer((req, res) => {
    const body = bodies[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404).end('missing');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  const spare = http.createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  downUrl = `http://127.0.0.1:${(spare.address() as AddressInfo).port}/prices.json`;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
});
afterAll(async () => {
  await new Promise<void>((resolve) => source.close(() => resolve()));
});

describe(`admin jobs (${engine})`, () => {
  let t: TestApp;
  let dataDir: string;

  async function app(sourcePath: string) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-admin-'));
    t = await createTestApp({
      env: {
        DATA_DIR: dataDir,
        PRICING_SOURCE_URL: sourcePath.startsWith('http') ? sourcePath : `${base}${sourcePath}`,
      },
    });
  }
  afterEach(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await prices.replaceData(bundled, { effectiveFrom: '2026-09-23', source: 'genai-prices' });
  });

  const sync = (headers: Record<string, string> = SERVICE) =>
    t.app.inject({ method: 'POST', url: '/functions/svc-pricing-sync', headers });
  const purge = (query: string, headers: Record<string, string> = SERVICE) =>
    t.app.inject({ method: 'POST', url: `/functions/svc-events-retention${query}`, headers });

  it('answers 403 to every caller but the service role key', async () => {
    await app('/genai.json');
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    for (const headers of [{}, bearer('junk'), bearer(user.accessToken), bearer(device.token)]) {
      expect((await sync(headers)).statusCode).toBe(403);
      expect((await purge('', headers)).statusCode).toBe(403);
    }
  });

  it('purges upload events older than the cutoff, with a dry run, never usage', async () => {
    await app('/genai.json');
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const now = t.clock.now();
    for (const daysAgo of [40, 31, 29, 1]) {
      t.clock.set(now - daysAgo * DAY);
      const hour = new Date(Math.floor((now - daysAgo * DAY) / 1_800_000) * 1_800_000).toISOString();
      expect((await ingest(t, device.token, [{ hour_start: hour, total_tokens: 10 }])).statusCode).toBe(200);
    }
    t.clock.set(now);
    const events = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('ingest_events')
            .select((eb) => eb.fn.countAll<bigint>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rollup = async () => t.db.kysely.selectFrom('usage_rollup').selectAll().execute();
    const usageBefore = await rollup();

    const dry = await purge('?dry_run=1');
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({
      success: true,
      dry_run: true,
      days: 30,
      cutoff: new Date(now - 30 * DAY).toISOString(),
      deleted: 2,
    });
    expect(await events()).toBe(4);

    expect((await purge('?days=2')).json()).toMatchObject({ dry_run: false, days: 2, deleted: 3 });
    expect(await events()).toBe(1);
    expect(await rollup()).toEqual(usageBefore);
    expect((await purge('')).json()).toMatchObject({ days: 30, deleted: 0 });

    for (const bad of ['?days=0', '?days=366', '?days=x', '?dry_run=maybe'])
      expect((await purge(bad)).statusCode, bad).toBe(400);
  });

  it('syncs genai-prices data, switches prices, reprices stored costs and keeps the prices for a restart', async () => {
    await app('/genai.json');
    expect(prices.priceOnDate('gpt-5', '2026-11-01').rates.input).toBe(1_250_000_000n);
    // A whole UTC day of gpt-5 usage (its cost is stored with the day's row): 1M uncached input tokens.
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    expect(
      (
        await ingest(t, device.token, [
          {
            hour_start: '2026-10-30T10:00:00Z',
            source: 'codex',
            model: 'gpt-5',
            input_tokens: 1_000_000,
            total_tokens: 1_000_000,
          },
        ])
      ).statusCode,
    ).toBe(200);
    const cost = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/functions/svc-usage-summary?from=2026-10-30&to=2026-10-30',
          headers: bearer(user.accessToken),
        })
      ).json().totals.total_cost_usd;
    expect(await cost()).toBe('1.250000');
    const res = await sync();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      updated: true,
      format: 'genai-prices',
      source: 'genai-prices',
      effective_from: '2026-11-01',
      models_updated: 1,
      models_skipped: 0,
      persisted: true,
      costs_repriced: 1,
    });
    expect(await cost()).toBe('2.500000');
    expect(body.models_seen).toBeGreaterThan(1000);
    expect(prices.priceOnDate('gpt-5', '2026-11-01').rates.input).toBe(2_500_000_000n);

    // A restart restores the kept data.
    await prices.replaceData(bundled, { effectiveFrom: '2026-09-23', source: 'genai-prices' });
    expect(prices.priceOnDate('gpt-5', '2026-11-01').rates.input).toBe(1_250_000_000n);
    expect(await restoreStoredPricing({ prices, store: createPricingStore(t.db, dataDir) })).toMatch(
      /^restored genai-prices prices effective 2026-11-01/,
    );
    expect(prices.priceOnDate('gpt-5', '2026-11-01').rates.input).toBe(2_500_000_000n);
    if (engine === 'sqlite') expect(fs.existsSync(path.join(dataDir, 'pricing.json'))).toBe(true);
    else
      expect(await t.db.kysely.selectFrom('pricing_data').select('source').execute()).toEqual([
        { source: 'genai-prices' },
      ]);
  });

  it('syncs an OpenRouter /models answer as prices from today on', async () => {
    await app('/openrouter.json');
    const body = (await sync()).json();
    expect(body).toMatchObject({
      success: true,
      updated: true,
      format: 'openrouter',
      source: 'openrouter',
      models_seen: 3,
      models_updated: 1,
      models_skipped: 2,
    });
    expect(body.skipped.map((s: { reason: string }) => s.reason).sort()).toEqual(['unknown_vendor', 'variant']);
    expect(prices.priceOnDate('gpt-5', '2026-11-01').rates.input).toBe(3_000_000_000n);
    expect(prices.priceOnDate('gpt-5', '2026-10-31').rates.input).toBe(1_250_000_000n); // earlier days keep their price
  });

  it('keeps the current prices when the source is down or the data is invalid, and says why', async () => {
    for (const [url, reason] of [
      [downUrl, /unreachable.*current prices stay in use/],
      [`${base}/missing.json`, /HTTP 404/],
      [`${base}/broken.json`, /did not return JSON/],
      [`${base}/empty.json`, /invalid: price data must be a non-empty array/],
      [`${base}/object.json`, /neither genai-prices data/],
    ] as const) {
      await app(url);
      const res = await sync();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: false,
        updated: false,
        persisted: false,
        source: 'genai-prices',
        effective_from: '2026-09-23',
      });
      expect(res.json().reason).toMatch(reason);
      expect(prices.priceOnDate('gpt-5', '2026-11-01').rates.input).toBe(1_250_000_000n);
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await app('/genai.json'); // for afterEach
  });
});
