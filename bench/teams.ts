/**
 * @fileoverview bench:teams — seeds, through the real ingest writer, a team of 200 members with a
 * year of usage each (8 active half-hours a day over two models and two projects), starts the
 * compiled server and measures svc-team-usage for every group_by at 1 connection with wrk, over
 * the default 30 days and a one-year range, in America/New_York (DST-true days). SQLite first,
 * then PostgreSQL if reachable. Target: p99 ≤ 50 ms at 1 connection. Beside the latencies: the CPU
 * milliseconds a request cost the server (and PostgreSQL's backends), which other work on the
 * machine does not inflate, and the load average.
 * BENCH_ENGINES (default `sqlite,postgres`), BENCH_SECONDS, BENCH_MEMBERS, BENCH_GROUPS (default every
 * group_by, comma-separated), BENCH_SPANS (default `30d,1y`). Paired runs: BENCH_BASELINE (another build's
 * dist/src/server.js, measured alternately with this one on the same data after checking that both
 * answer the same bytes) and BENCH_ROUNDS (runs of each, default 1).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openPostgres, openSqlite, type Db } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Bucket } from '../src/domain/bucket.js';
import { createIngestWriter } from '../src/ingest/store.js';
import { createPriceService } from '../src/pricing/price-service.js';
import { benchBucket } from './lib/buckets.js';
import { backendsCpu, backendsCpuSince, BENCH_PG_URL, freshPgDatabase, pgReachable } from './lib/postgres.js';
import {
  benchServerEnv,
  cpuSeconds,
  ROOT,
  startNode,
  startServer,
  stopProcess,
  type Started,
} from './lib/processes.js';
import { benchAccessToken, storeBenchSession } from './lib/session.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const LUA = path.join(ROOT, 'bench/analytics.lua');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const GROUPS = (process.env.BENCH_GROUPS ?? 'day,member,model,source,project').split(',');
const SPANS = (process.env.BENCH_SPANS ?? '30d,1y').split(',');
const BASELINE = process.env.BENCH_BASELINE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const TARGET_P99_MS = 50;
const MODELS: [string, string][] = [
  ['codex', 'gpt-5-codex'],
  ['claude', 'claude-sonnet-4-5'],
];

async function seed(db: Db, now: number): Promise<{ owner: string; teamId: string; seconds: number }> {
  const t0 = performance.now();
  await migrateToLatest(db);
  const prices = createPriceService();
  const writer = createIngestWriter(db, (model, day) => prices.priceOn(model, day).rates);
  const today = Math.floor(now / DAY_MS);
  const users = Array.from({ length: MEMBERS }, () => randomUUID());
  const teamId = randomUUID();
  const tag = randomBytes(3).toString('hex');
  await db.kysely
    .insertInto('teams')
    .values({ id: teamId, name: 'Bench', slug: `bench-${tag}`, created_at: now, updated_at: now })
    .execute();
  for (const [i, userId] of users.entries()) {
    const deviceId = randomUUID();
    await db.kysely
      .insertInto('users')
      .values({
        id: userId,
        email: `${userId}@bench.example`,
        display_name: `Member ${i}`,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db.kysely
      .insertInto('devices')
      .values({ id: deviceId, user_id: userId, name: 'bench', platform: 'linux', created_at: now })
      .execute();
    await db.kysely
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: userId, role: i === 0 ? 'owner' : 'member', joined_at: now + i })
      .execute();
    for (let chunk = 0; chunk < 366; chunk += 61) {
      const buckets: Bucket[] = [];
      for (let d = chunk; d < Math.min(chunk + 61, 366); d++) {
        for (let s = 0; s < 8; s++) {
          const [source, model] = MODELS[(d + s + i) % 2] as [string, string];
          const slot = (10 + 4 * s + i) % 48;
          buckets.push(
            benchBucket(
              (today - 365 + d) * DAY_MS + slot * HALF_HOUR_MS,
              source,
              model,
              s % 2 ? 'acme/api' : 'acme/web',
              1,
            ),
          );
        }
      }
      await writer.apply({ userId, deviceId, now, buckets, subscriptions: undefined });
    }
  }
  await writer.close();
  return { owner: users[0] as string, teamId, seconds: (performance.now() - t0) / 1000 };
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

async function benchEngine(label: string, env: NodeJS.ProcessEnv, open: () => Promise<Db>): Promise<number> {
  const now = Date.now();
  const db = await open();
  let seeded: Awaited<ReturnType<typeof seed>>;
  let sessionId: string;
  try {
    seeded = await seed(db, now);
    sessionId = await storeBenchSession(db, seeded.owner, now);
    // the planner's statistics as autovacuum keeps them on a live server (the seeding is seconds old)
    if (db.dialect === 'postgres') await sql`analyze`.execute(db.kysely);
  } finally {
    await db.close();
  }
  console.log(`\n${label}: seeded ${MEMBERS} members × 366 days in ${seeded.seconds.toFixed(1)} s`);
  const token = await benchAccessToken(seeded.owner, sessionId, now);
  // Paired runs: this build's server and BENCH_BASELINE's, on the same data, alternating.
  const servers: { name: string; started: Started }[] = [];
  let missed = 0;
  try {
    servers.push({ name: BASELINE ? 'this' : '', started: await startServer(env) });
    if (BASELINE) servers.push({ name: 'base', started: await startNode(BASELINE, env, LISTENING) });
    for (const [span, from] of [
      ['30 days', '', '30d'],
      ['one year', `&from=${isoDay(now - 364 * DAY_MS)}`, '1y'],
    ].filter((s) => SPANS.includes(s[2] as string))) {
      for (const group of GROUPS) {
        const url = `/functions/svc-team-usage?team_id=${seeded.teamId}&group_by=${group}&tz=America%2FNew_York&to=${isoDay(now)}${from}`;
        const bodies = new Set<string>();
        for (const { started } of servers) {
          const res = await fetch(`http://127.0.0.1:${started.port}${url}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          if (!res.ok) throw new Error(`${url} → ${res.status} ${await res.text()}`);
          bodies.add(await res.text());
        }
        if (bodies.size > 1) throw new Error(`${group} (${span}): the two builds answer differently`);
        for (let round = 0; round < ROUNDS; round++)
          for (const { name, started } of servers) {
            const base = `http://127.0.0.1:${started.port}`;
            const wrkEnv = { TOKEN: token, REQ_PATH: url };
            runWrk({ url: base, script: LUA, connections: 1, seconds: 1, env: wrkEnv }); // warm-up
            const cpuBefore = cpuSeconds(started.child.pid);
            const dbBefore = await backendsCpu(env);
            const one = runWrk({ url: base, script: LUA, connections: 1, seconds: SECONDS, env: wrkEnv });
            // CPU per request (server, and PostgreSQL's backends): what the answer costs, whatever else runs.
            const cpuMs = ((cpuSeconds(started.child.pid) - cpuBefore) * 1000) / Math.max(1, one.requests);
            const dbMs = (backendsCpuSince(dbBefore, await backendsCpu(env)) * 1000) / Math.max(1, one.requests);
            const ok = one.requests > 0 && one.p99Ms <= TARGET_P99_MS && one.non2xx === 0;
            if (!ok && name !== 'base') missed++;
            console.log(
              `  ${`${group} (${span})${name ? ` ${name}` : ''}`.padEnd(27)} c1 p50 ${one.p50Ms.toFixed(2).padStart(7)} ms  p99 ${one.p99Ms.toFixed(2).padStart(7)} ms  ${one.requests} req  cpu ${cpuMs.toFixed(1)}${env.DATABASE_URL ? ` + db ${dbMs.toFixed(1)}` : ''} ms/req  load ${os.loadavg()[0]?.toFixed(1)}  ${ok ? 'ok' : 'MISSED'}`,
            );
          }
      }
    }
  } finally {
    for (const { started } of servers) await stopProcess(started.child);
  }
  return missed;
}

async function main(): Promise<void> {
  ensureWrk();
  console.log(`bench:teams — wrk ${SECONDS}s per run, node ${process.version}, ${os.cpus().length} cores`);
  console.log(
    `target: c1 p99 ≤ ${TARGET_P99_MS} ms for every group_by; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const common = benchServerEnv();
  let missed = 0;
  if (ENGINES.includes('sqlite')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-teams-'));
    try {
      missed += await benchEngine(
        'SQLite (embedded, WAL)',
        { ...common, DATA_DIR: dataDir, DATABASE_URL: '' },
        async () => openSqlite(path.join(dataDir, 'tokentally.db')),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (ENGINES.includes('postgres')) {
    if (await pgReachable()) {
      const url = await freshPgDatabase('tokentally_bench_teams');
      const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-teams-pg-'));
      try {
        missed += await benchEngine(
          'PostgreSQL (local server)',
          { ...common, DATA_DIR: pgDir, DATABASE_URL: url },
          () => openPostgres(url, 10),
        );
      } finally {
        fs.rmSync(pgDir, { recursive: true, force: true });
      }
    } else console.log(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped`);
  }
  console.log(missed === 0 ? '\nEvery run met the target.' : `\n${missed} runs missed the target.`);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
