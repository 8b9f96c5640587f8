/**
 * @fileoverview bench:analytics — seeds, through the query layer (the real ingest writer, so the
 * read models are kept as in production), a heavy user (one year, three devices, four models,
 * two projects, 16 active half-hours a day) among 10,000 other users, starts the compiled server
 * and measures every analytics endpoint with a one-year range in UTC and in America/New_York with
 * wrk: latency at 1 connection, throughput at 20. SQLite first, then PostgreSQL if reachable.
 * Targets (SQLite): p50 ≤ 5 ms and p99 ≤ 15 ms at 1 connection, ≥ 500 req/s at 20.
 * BENCH_ENGINES (default `sqlite,postgres`), BENCH_SECONDS, BENCH_OTHER_USERS.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres, openSqlite, type Db } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Bucket } from '../src/domain/bucket.js';
import { benchBucket } from './lib/buckets.js';
import { createIngestWriter } from '../src/ingest/store.js';
import { createPriceService } from '../src/pricing/price-service.js';
import { benchAccessToken, storeBenchSession } from './lib/session.js';
import { BENCH_PG_URL, freshPgDatabase, pgReachable } from './lib/postgres.js';
import { benchServerEnv, ROOT, startServer, stopProcess } from './lib/processes.js';
import { ensureWrk, runWrk, type WrkResult } from './lib/wrk.js';

const LUA = path.join(ROOT, 'bench/analytics.lua');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const OTHER_USERS = Number(process.env.BENCH_OTHER_USERS ?? 10_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const MODELS: [string, string][] = [
  ['codex', 'gpt-5-codex'],
  ['claude', 'claude-sonnet-4-5'],
  ['codex', 'gpt-5'],
  ['claude', 'claude-opus-4-1'],
];
const TARGET = { p50: 5, p99: 15, rps: 500 };

async function insertUsers(db: Db, ids: string[], now: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db.kysely
      .insertInto('users')
      .values(chunk.map((id) => ({ id, email: `${id}@bench.example`, created_at: now, updated_at: now })))
      .execute();
  }
}

async function insertDevices(db: Db, devices: { id: string; userId: string }[], now: number): Promise<void> {
  for (let i = 0; i < devices.length; i += 500) {
    const chunk = devices.slice(i, i + 500);
    await db.kysely
      .insertInto('devices')
      .values(chunk.map((d) => ({ id: d.id, user_id: d.userId, name: 'bench', platform: 'linux', created_at: now })))
      .execute();
    await db.kysely
      .insertInto('device_tokens')
      .values(
        chunk.map((d) => ({
          token_hash: randomBytes(32).toString('hex'),
          device_id: d.id,
          user_id: d.userId,
          created_at: now,
        })),
      )
      .execute();
  }
}

interface Seeded {
  heavyUser: string;
  heavyRollupRows: number;
  seconds: number;
}

async function seed(db: Db, now: number): Promise<Seeded> {
  const t0 = performance.now();
  await migrateToLatest(db);
  const prices = createPriceService();
  const writer = createIngestWriter(db, (model, day) => prices.priceOn(model, day).rates);
  const today = Math.floor(now / DAY_MS);
  const heavyUser = randomUUID();
  const others = Array.from({ length: OTHER_USERS }, () => randomUUID());
  await insertUsers(db, [heavyUser, ...others], now);
  const heavyDevices = [0, 1, 2].map(() => ({ id: randomUUID(), userId: heavyUser }));
  const otherDevices = others.map((userId) => ({ id: randomUUID(), userId }));
  await insertDevices(db, [...heavyDevices, ...otherDevices], now);

  // Heavy user: 366 days up to today, 16 active half-hours a day spread over the UTC day, each
  // device on one of four models per half-hour, alternating between two projects.
  for (const [k, device] of heavyDevices.entries()) {
    for (let chunk = 0; chunk < 366; chunk += 10) {
      const buckets: Bucket[] = [];
      for (let d = chunk; d < Math.min(chunk + 10, 366); d++) {
        const day = today - 365 + d;
        for (let s = 0; s < 16; s++) {
          const slot = (6 + 3 * s) % 48;
          const [source, model] = MODELS[(d + s + k) % 4] as [string, string];
          buckets.push(
            benchBucket(
              day * DAY_MS + slot * HALF_HOUR_MS,
              source,
              model,
              s % 2 === 0 ? 'acme/api' : 'acme/web',
              1 + k,
            ),
          );
        }
      }
      await writer.apply({ userId: heavyUser, deviceId: device.id, now, buckets, subscriptions: undefined });
    }
  }
  // Other users: 20 buckets each over the last 30 days.
  for (const [i, device] of otherDevices.entries()) {
    const buckets: Bucket[] = [];
    for (let j = 0; j < 20; j++) {
      const [source, model] = MODELS[(i + j) % 4] as [string, string];
      buckets.push(
        benchBucket(
          (today - 29 + ((i + j) % 30)) * DAY_MS + ((i * 7 + j * 13) % 48) * HALF_HOUR_MS,
          source,
          model,
          '',
          1,
        ),
      );
    }
    await writer.apply({ userId: device.userId, deviceId: device.id, now, buckets, subscriptions: undefined });
  }
  const rows = await db.kysely
    .selectFrom('usage_rollup')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('user_id', '=', heavyUser)
    .executeTakeFirstOrThrow();
  await writer.close();
  return { heavyUser, heavyRollupRows: Number(rows.n), seconds: (performance.now() - t0) / 1000 };
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function requests(zone: string, now: number): [string, string][] {
  const to = isoDay(now);
  const from = isoDay(now - 364 * DAY_MS);
  const tz = zone === 'UTC' ? '' : `&tz=${encodeURIComponent(zone)}`;
  return [
    ['summary', `/functions/svc-usage-summary?from=${from}&to=${to}${tz}`],
    ['daily', `/functions/svc-usage-daily?from=${from}&to=${to}${tz}`],
    ['hourly', `/functions/svc-usage-hourly?day=${isoDay(now - DAY_MS)}${tz}`],
    ['monthly', `/functions/svc-usage-monthly?months=12&to=${to}${tz}`],
    ['heatmap', `/functions/svc-usage-heatmap?weeks=52&to=${to}${tz}`],
    ['model-breakdown', `/functions/svc-usage-model-breakdown?from=${from}&to=${to}${tz}`],
    ['project-summary', `/functions/svc-project-usage-summary?limit=10`],
    ['user-status', `/functions/svc-user-status`],
  ];
}

interface Line {
  name: string;
  one: WrkResult;
  twenty: WrkResult;
}

function verdict(l: Line): string {
  const ok =
    l.one.p50Ms <= TARGET.p50 &&
    l.one.p99Ms <= TARGET.p99 &&
    l.twenty.requestsPerSecond >= TARGET.rps &&
    l.one.non2xx + l.twenty.non2xx === 0;
  return ok ? 'ok' : 'MISSED';
}

async function benchEngine(label: string, env: NodeJS.ProcessEnv, open: () => Promise<Db>): Promise<Line[]> {
  const now = Date.now();
  const db = await open();
  let seeded: Seeded;
  let sessionId: string;
  try {
    seeded = await seed(db, now);
    sessionId = await storeBenchSession(db, seeded.heavyUser, now);
  } finally {
    await db.close();
  }
  console.log(
    `\n${label}: seeded in ${seeded.seconds.toFixed(1)} s (heavy user: ${seeded.heavyRollupRows} rollup rows; ${OTHER_USERS} other users)`,
  );
  const token = await benchAccessToken(seeded.heavyUser, sessionId, now);
  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  const lines: Line[] = [];
  try {
    for (const zone of ['UTC', 'America/New_York']) {
      for (const [name, url] of requests(zone, now)) {
        if (zone !== 'UTC' && (name === 'project-summary' || name === 'user-status')) continue;
        const res = await fetch(base + url, { headers: { authorization: `Bearer ${token}` } });
        if (!res.ok) throw new Error(`${url} → ${res.status} ${await res.text()}`);
        // Read to its end: a body left unread holds its keep-alive connection open in the client,
        // and such connections drew a 408 from the server a few runs later.
        await res.arrayBuffer();
        const wrkEnv = { TOKEN: token, REQ_PATH: url };
        runWrk({ url: base, script: LUA, connections: 1, seconds: 1, env: wrkEnv }); // warm-up
        const one = runWrk({ url: base, script: LUA, connections: 1, seconds: SECONDS, env: wrkEnv });
        const twenty = runWrk({ url: base, script: LUA, connections: 20, seconds: SECONDS, env: wrkEnv });
        const line = { name: `${name} ${zone === 'UTC' ? 'UTC' : 'New_York'}`, one, twenty };
        lines.push(line);
        console.log(
          `  ${line.name.padEnd(26)} c1 p50 ${one.p50Ms.toFixed(2).padStart(6)} ms  p99 ${one.p99Ms.toFixed(2).padStart(6)} ms   c20 ${twenty.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${twenty.p99Ms.toFixed(1).padStart(6)} ms   ${label.startsWith('SQLite') ? verdict(line) : ''}`,
        );
      }
    }
  } finally {
    await stopProcess(server.child);
  }
  return lines;
}

async function main(): Promise<void> {
  ensureWrk();
  console.log(
    `bench:analytics — wrk ${SECONDS}s per run, one-year ranges, node ${process.version}, ${os.cpus().length} cores`,
  );
  console.log(`targets (SQLite): c1 p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms; c20 ≥ ${TARGET.rps} req/s`);
  const common = benchServerEnv();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-analytics-'));
  let missed = 0;
  if (ENGINES.includes('sqlite')) {
    try {
      const lines = await benchEngine(
        'SQLite (embedded, WAL)',
        { ...common, DATA_DIR: dataDir, DATABASE_URL: '' },
        async () => openSqlite(path.join(dataDir, 'tokentally.db')),
      );
      missed = lines.filter((l) => verdict(l) !== 'ok').length;
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (!ENGINES.includes('postgres')) {
    // skipped by BENCH_ENGINES
  } else if (await pgReachable()) {
    const url = await freshPgDatabase('tokentally_bench_analytics');
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-analytics-pg-'));
    try {
      await benchEngine('PostgreSQL (local server)', { ...common, DATA_DIR: pgDir, DATABASE_URL: url }, () =>
        openPostgres(url, 10),
      );
    } finally {
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  } else {
    console.log(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped`);
  }
  console.log(
    missed === 0
      ? '\nSQLite: every endpoint met its targets.'
      : `\nSQLite: ${missed} endpoint/zone runs missed a target.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
