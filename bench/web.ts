/**
 * @fileoverview bench:web — the dashboard with a heavy user (one year, three devices, eight models
 * with a dated id among them, 16 active half-hours a day, uploaded through the real ingest
 * endpoint), in Debian's chromium: time
 * from navigation to the first chart (the trend drawn and the totals shown) on the signed-in
 * overview of "This year", and the JavaScript transferred, with a cold cache per run; the load
 * average is printed beside each run (the machine may be shared). Beside it, the same moment by the
 * page's own clock. The server is the compiled one in its own process (BENCH_SERVER: another
 * build's dist/src/server.js, which serves that build's dashboard, for paired runs).
 * BENCH_RUNS (default 5). The dashboard must be built (npm run build:web; the script does it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, stopProcess } from './lib/processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DAY_MS = 86_400_000;
const MODELS: Array<[string, string]> = [
  ['codex', 'gpt-5-codex'],
  ['claude', 'claude-sonnet-4-5'],
  ['codex', 'gpt-5'],
  ['claude', 'claude-opus-4-1'],
  ['claude', 'claude-sonnet-4-5-20250929'],
  ['gemini', 'gemini-2.5-pro'],
  ['claude', 'claude-haiku-4-5'],
  ['codex', 'gpt-5-mini'],
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-bench-web-'));
// The server runs in its own process, as deployed (BENCH_SERVER: another build's, for paired runs):
// sharing this process with the browser driver would delay what the driver sees of the page.
const server = await startServer({
  DATA_DIR: dir,
  DATABASE_URL: '',
  PORT: '0',
  HOST: '127.0.0.1',
  JOBS_ENABLED: 'false',
  PASSWORD_SCRYPT_COST: '32768', // the lowest the server accepts
  INGEST_RATE_PER_MINUTE: '100000',
  INGEST_BURST: '100000',
  RATE_LIMIT_AUTH_PER_MINUTE: '100000',
});
const base = `http://127.0.0.1:${server.port}`;

async function post(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const email = 'heavy@example.com';
const password = 'a long password';
const user = await post('/auth/v1/signup', { email, password, data: { display_name: 'Heavy user' } });
const access = user['access_token'] as string;
const seedStart = Date.now();
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
let buckets = 0;
for (let d = 0; d < 3; d++) {
  const device = await post(
    '/functions/svc-device-token-issue',
    { device_name: `machine-${d + 1}`, platform: 'linux' },
    access,
  );
  const hourly: Array<Record<string, unknown>> = [];
  for (let day = 364; day >= 0; day--) {
    for (let slot = 0; slot < 16; slot++) {
      if ((slot + d) % 3 !== 0) continue; // the three devices share the 16 busy half-hours of a day
      const [source, model] = MODELS[(day + slot) % MODELS.length] as [string, string];
      const input = 20_000 + ((day * 31 + slot * 7) % 9000);
      hourly.push({
        hour_start: new Date(today - day * DAY_MS + (8 * 2 + slot) * 1_800_000).toISOString(),
        source,
        model,
        input_tokens: input,
        cached_input_tokens: 8000,
        output_tokens: 3000,
        total_tokens: input + 3000,
      });
    }
  }
  for (let i = 0; i < hourly.length; i += 500)
    await post('/functions/svc-ingest', { hourly: hourly.slice(i, i + 500) }, device['token'] as string);
  buckets += hourly.length;
}
process.stdout.write(
  `seeded ${buckets} half-hour buckets (one year, 3 devices, ${MODELS.length} models) in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`,
);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const signIn = await browser.newContext({ baseURL: base });
const first = await signIn.newPage();
await first.goto('/sign-in');
await first.getByLabel('E-mail').fill(email);
await first.getByLabel('Password').fill(password);
await first.getByRole('button', { name: 'Sign in' }).click();
await first.getByRole('heading', { name: 'Overview' }).waitFor();
const storageState = await signIn.storageState();
await signIn.close();

const times: number[] = [];
const inPage: number[] = [];
const loads: number[] = [];
// The page's own clock: when the chart and the totals were first both in the document, from the
// navigation's start. The driver's figure (the one the target is about) adds the round trips that
// tell the driver so.
const MARK = `new MutationObserver((_, o) => {
  if (document.querySelector('.trend-chart canvas') && document.querySelector('[data-testid=stat-tokens]')?.textContent) {
    window.__firstChart = performance.now();
    o.disconnect();
  }
}).observe(document, { childList: true, subtree: true, characterData: true });`;
let jsBytes = 0;
for (let run = 0; run < RUNS; run++) {
  const ctx = await browser.newContext({ baseURL: base, storageState, viewport: { width: 1280, height: 900 } });
  await ctx.addInitScript(MARK);
  const page = await ctx.newPage();
  const scripts: Array<Promise<number>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(
        response
          .request()
          .sizes()
          .then((s) => s.responseBodySize + s.responseHeadersSize),
      );
  });
  const started = performance.now();
  await page.goto('/?range=year');
  await page.locator('.trend-chart canvas').waitFor();
  await page.waitForFunction("document.querySelector('[data-testid=stat-tokens]')?.textContent?.length > 0");
  times.push(performance.now() - started);
  loads.push(os.loadavg()[0] ?? 0);
  inPage.push(Number(await page.evaluate('window.__firstChart')));
  if (process.env.BENCH_DEBUG) {
    const entries = (await page.evaluate(
      "performance.getEntriesByType('resource').map(e => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.duration)])",
    )) as Array<[string, number, number]>;
    for (const [name, start, duration] of entries)
      process.stdout.write(`  ${start} +${duration} ms ${name.slice(0, 110)}\n`);
  }
  jsBytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
  await ctx.close();
}
await browser.close();
await stopProcess(server.child);
fs.rmSync(dir, { recursive: true, force: true });

const sorted = [...times].sort((a, b) => a - b);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
process.stdout.write(
  `overview "This year", cold cache, ${RUNS} runs: time to first chart ${times.map((t, i) => `${t.toFixed(0)} ms (load ${(loads[i] ?? 0).toFixed(2)})`).join(', ')}\n`,
);
process.stdout.write(
  `median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms (target: usable within 1000 ms); JavaScript transferred ${(jsBytes / 1024).toFixed(1)} KB\n`,
);
process.stdout.write(
  `in the page (its own clock): chart and totals in ${inPage.map((t) => t.toFixed(0)).join(', ')} ms, median ${median(inPage).toFixed(0)} ms\n`,
);
