/**
 * @fileoverview bench:export — seeds (through the real ingest writer) one user with a month of
 * data from one device, one with a year from four devices and one with two years from eight, then for each starts a fresh
 * compiled server and downloads exportUsage as JSON and as CSV, printing the time, the bytes and
 * the server's peak RSS (VmHWM) after a warm-up and after the downloads. The export streams page
 * by page, so the peak should not grow with the user's data. SQLite first, then PostgreSQL if
 * reachable. BENCH_ENGINES (default `sqlite,postgres`), BENCH_EXPORT_HALF_HOURS (active
 * half-hours a day, default 32).
 */
import type { Bucket } from '../src/domain/bucket.js';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres, openSqlite, type Db } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { benchBucket } from './lib/buckets.js';
import { createIngestWriter } from '../src/ingest/store.js';
import { createPriceService } from '../src/pricing/price-service.js';
import { BENCH_PG_URL, freshPgDatabase, pgReachable } from './lib/postgres.js';
import { benchAccessToken, storeBenchSession } from './lib/session.js';
import { benchServerEnv, peakRssMb, startServer, stopProcess } from './lib/processes.js';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
/** Distinct half-hours for s < 48 (5 is coprime with 48). */
const HALF_HOURS = Math.min(48, Number(process.env.BENCH_EXPORT_HALF_HOURS ?? 32));
const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const MODELS: [string, string][] = [
  ['codex', 'gpt-5-codex'],
  ['claude', 'claude-sonnet-4-5'],
];
const SIZES = [
  { name: 'month, 1 device', devices: 1, days: 30 },
  { name: 'year, 4 devices', devices: 4, days: 366 },
  { name: '2 years, 8 devices', devices: 8, days: 731 },
];

/** Seeds one user per size; answers their ids and bucket counts. */
async function seed(db: Db, now: number): Promise<{ userId: string; buckets: number }[]> {
  await migrateToLatest(db);
  const prices = createPriceService();
  const writer = createIngestWriter(db, (model, day) => prices.priceOn(model, day).rates);
  const today = Math.floor(now / DAY_MS);
  const out: { userId: string; buckets: number }[] = [];
  for (const size of SIZES) {
    const userId = randomUUID();
    await db.kysely
      .insertInto('users')
      .values({ id: userId, email: `${userId}@bench.example`, created_at: now, updated_at: now })
      .execute();
    let count = 0;
    for (let k = 0; k < size.devices; k++) {
      const deviceId = randomUUID();
      await db.kysely
        .insertInto('devices')
        .values({ id: deviceId, user_id: userId, name: `bench-${k}`, platform: 'linux', created_at: now + k })
        .execute();
      for (let chunk = 0; chunk < size.days; chunk += 5) {
        const buckets: Bucket[] = [];
        for (let d = chunk; d < Math.min(chunk + 5, size.days); d++) {
          const day = today - size.days + 1 + d;
          for (let s = 0; s < HALF_HOURS; s++) {
            for (const [source, model] of MODELS)
              buckets.push(
                benchBucket(
                  day * DAY_MS + ((s * 5 + k) % 48) * HALF_HOUR_MS,
                  source,
                  model,
                  s % 2 === 0 ? 'acme/api' : '',
                ),
              );
          }
        }
        await writer.apply({ userId, deviceId, now, buckets, subscriptions: undefined });
        count += buckets.length;
      }
    }
    out.push({ userId, buckets: count });
  }
  await writer.close();
  return out;
}

/** Downloads `url`, counting bytes without keeping them; answers (ms, bytes). */
async function download(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) throw new Error(`${url} → ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
  return { ms: performance.now() - t0, bytes };
}

async function benchEngine(label: string, env: NodeJS.ProcessEnv, open: () => Promise<Db>): Promise<void> {
  const now = Date.now();
  const db = await open();
  const t0 = performance.now();
  let users: { userId: string; buckets: number }[];
  const sessions = new Map<string, string>();
  try {
    users = await seed(db, now);
    for (const u of users) sessions.set(u.userId, await storeBenchSession(db, u.userId, now));
  } finally {
    await db.close();
  }
  console.log(`\n${label}: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const [i, size] of SIZES.entries()) {
    const user = users[i] as { userId: string; buckets: number };
    const token = await benchAccessToken(user.userId, sessions.get(user.userId) as string, now);
    const server = await startServer(env);
    const base = `http://127.0.0.1:${server.port}/functions/svc-export`;
    try {
      await download(`${base}?from=2020-01-01&to=2020-01-01`, token); // warm-up: routes, statements, JIT
      const warm = peakRssMb(server.child.pid);
      const json = await download(`${base}?format=json`, token);
      const csv = await download(`${base}?format=csv`, token);
      const peak = peakRssMb(server.child.pid);
      const mb = (b: number) => (b / 1_048_576).toFixed(1);
      console.log(
        `  ${size.name.padEnd(19)} ${String(user.buckets).padStart(7)} buckets   json ${(json.ms / 1000).toFixed(2)} s ${mb(json.bytes).padStart(6)} MB   ` +
          `csv ${(csv.ms / 1000).toFixed(2)} s ${mb(csv.bytes).padStart(6)} MB   peak RSS ${warm.toFixed(0)} MB warm → ${peak.toFixed(0)} MB after (+${(peak - warm).toFixed(0)})`,
      );
    } finally {
      await stopProcess(server.child);
    }
  }
}

async function main(): Promise<void> {
  console.log(
    `bench:export — node ${process.version}, ${os.cpus().length} cores, ${HALF_HOURS} active half-hours a day × ${MODELS.length} models per device`,
  );
  const common = benchServerEnv();
  if (ENGINES.includes('sqlite')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-export-'));
    try {
      await benchEngine('SQLite (embedded, WAL)', { ...common, DATA_DIR: dataDir, DATABASE_URL: '' }, async () =>
        openSqlite(path.join(dataDir, 'tokentally.db')),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (!ENGINES.includes('postgres')) return;
  if (!(await pgReachable())) {
    console.log(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped`);
    return;
  }
  const url = await freshPgDatabase('tokentally_bench_export');
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-export-pg-'));
  try {
    await benchEngine('PostgreSQL (local server)', { ...common, DATA_DIR: pgDir, DATABASE_URL: url }, () =>
      openPostgres(url, 10),
    );
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
