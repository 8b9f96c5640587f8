/**
 * @fileoverview bench:leaderboard — seeds BENCH_USERS users (default 100,000), each with 30 days of
 * usage at 8 half-hours a day over two models (gpt-5-codex, claude-sonnet-4-5), through the query
 * layer (batched inserts into usage_rollup inside transactions, then the per-period family totals
 * built from it in bulk, as migration 0003 does); starts the compiled server, times a refresh of
 * all periods, then reads pages signed in (so `me` is computed) with wrk at 1 and 50 connections.
 * SQLite, then PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Db } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { rebuildLeaderboardAggregates } from '../src/db/migrations/leaderboard-aggregates.js';
import { BENCH_PG_URL, freshPgDatabase, pgReachable } from './lib/postgres.js';
import { benchAccessToken, storeBenchSession } from './lib/session.js';
import { benchServerEnv, BENCH_SERVICE_KEY as SERVICE_KEY, ROOT, startServer, stopProcess } from './lib/processes.js';
import { ensureWrk, runWrk, type WrkResult } from './lib/wrk.js';

const LUA = path.join(ROOT, 'bench/leaderboard.lua');
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DAY_MS = 86_400_000;

const userId = (u: number) => `00000000-0000-4000-8000-${String(u).padStart(12, '0')}`;

/** Seeds users and their rollup rows in transactions of 100 users (48,000 rows), a few transactions at once on PostgreSQL. */
async function seed(db: Db, nowMs: number): Promise<{ rows: number; ms: number }> {
  const started = Date.now();
  const today = Math.floor(nowMs / DAY_MS);
  const PER_TX = 100;
  const STATEMENT_ROWS = db.dialect === 'sqlite' ? 3000 : 5000;
  let rows = 0;
  let lastReport = Date.now();
  const seedUsers = async (u0: number, u1: number) => {
    await db.kysely.transaction().execute(async (tx) => {
      const users = [];
      for (let u = u0; u < u1; u++) {
        users.push({
          id: userId(u),
          email: `bench${u}@example.com`,
          password_hash: null,
          display_name: u % 10 === 0 ? `Bencher ${u}` : null,
          avatar_url: null,
          external_id: null,
          created_at: nowMs,
          updated_at: nowMs,
        });
      }
      await tx.insertInto('users').values(users).execute();
      let batch = [];
      for (let u = u0; u < u1; u++) {
        for (let d = 0; d < 30; d++) {
          for (let h = 0; h < 8; h++) {
            const hourStart = (today - 29 + d) * DAY_MS + (18 + h) * 1_800_000;
            const v = ((u * 7919 + d * 31 + h) % 5000) + 1;
            batch.push({
              user_id: userId(u),
              hour_start: hourStart,
              source: 'codex',
              model: 'gpt-5-codex',
              input: v * 10,
              cached_input: v * 5,
              output: v,
              reasoning: 0,
              total: v * 11,
              billable: v * 11,
            });
            batch.push({
              user_id: userId(u),
              hour_start: hourStart,
              source: 'claude',
              model: 'claude-sonnet-4-5',
              input: v,
              cached_input: v * 20,
              output: v * 2,
              reasoning: 0,
              total: v * 3,
              billable: v * 23,
            });
            if (batch.length >= STATEMENT_ROWS) {
              await tx.insertInto('usage_rollup').values(batch).execute();
              rows += batch.length;
              batch = [];
            }
          }
        }
      }
      if (batch.length > 0) {
        await tx.insertInto('usage_rollup').values(batch).execute();
        rows += batch.length;
      }
    });
    if (Date.now() - lastReport > 15_000) {
      lastReport = Date.now();
      console.log(`  … ${rows.toLocaleString('en')} rollup rows (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  };
  const chunks: [number, number][] = [];
  for (let u = 0; u < USERS; u += PER_TX) chunks.push([u, Math.min(USERS, u + PER_TX)]);
  const workers = db.dialect === 'postgres' ? 4 : 1;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) await seedUsers(chunk[0], chunk[1]);
    }),
  );
  return { rows, ms: Date.now() - started };
}

/** Every tenth user turns public visibility on (so names are joined on reads). */
async function makeEveryTenthPublic(db: Db, nowMs: number): Promise<void> {
  for (let u0 = 0; u0 < USERS; u0 += 10_000) {
    const rows: {
      user_id: string;
      token_hash: string;
      token_nonce: null;
      created_at: number;
      updated_at: number;
      revoked_at: null;
    }[] = [];
    for (let u = u0; u < Math.min(USERS, u0 + 10_000); u += 10) {
      rows.push({
        user_id: userId(u),
        token_hash: `bench-${u}`,
        token_nonce: null,
        created_at: nowMs,
        updated_at: nowMs,
        revoked_at: null,
      });
    }
    await db.kysely.transaction().execute(async (tx) => {
      for (let i = 0; i < rows.length; i += 1000)
        await tx
          .insertInto('public_views')
          .values(rows.slice(i, i + 1000))
          .execute();
    });
  }
}

function line(label: string, r: WrkResult): string {
  return `  ${label.padEnd(26)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  non-2xx ${r.non2xx}`;
}

async function benchEngine(name: string, env: NodeJS.ProcessEnv): Promise<void> {
  console.log(`\n${name}`);
  const config = loadConfig(env);
  const db = await openDatabase(config.database);
  const now = Date.now();
  let sessionId = '';
  try {
    await migrateToLatest(db);
    // Rows go straight into the rollup (the ingest writer would also keep the analytics read models,
    // which this benchmark does not read, and would make loading 48 million rows take most of an
    // hour); the leaderboard's per-period family totals are then built in bulk from it.
    const seeded = await seed(db, now);
    console.log(
      `  seeded ${USERS.toLocaleString('en')} users, ${seeded.rows.toLocaleString('en')} rollup rows in ${(seeded.ms / 1000).toFixed(1)} s (${Math.round(seeded.rows / (seeded.ms / 1000)).toLocaleString('en')} rows/s)`,
    );
    const t0 = Date.now();
    await rebuildLeaderboardAggregates(db.kysely, db.dialect);
    console.log(`  per-period family totals built from the rollup in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await makeEveryTenthPublic(db, now);
    sessionId = await storeBenchSession(db, userId(USERS - 1), now);
  } finally {
    await db.close();
  }
  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const times: number[] = [];
    let answer = '';
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/functions/svc-leaderboard-refresh`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SERVICE_KEY}` },
      });
      times.push(performance.now() - t0);
      answer = await res.text();
      if (!res.ok) throw new Error(`refresh → ${res.status} ${answer}`);
    }
    console.log(`  refresh of all periods: ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}  ${answer}`);
    const me = USERS - 1;
    const token = await benchAccessToken(userId(me), sessionId, now);
    const probe = await fetch(`${base}/functions/svc-leaderboard?period=week`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await probe.json()) as { total_entries: number; me: unknown };
    console.log(`  probe: ${probe.status}, ${body.total_entries} entries, me ${JSON.stringify(body.me)}`);
    const wrkEnv = { TOKEN: token };
    runWrk({ url: base, script: LUA, connections: 10, seconds: 2, env: wrkEnv }); // warm-up
    console.log(
      line(
        'page reads, 1 connection',
        runWrk({ url: base, script: LUA, connections: 1, seconds: SECONDS, env: wrkEnv }),
      ),
    );
    console.log(
      line(
        'page reads, 50 connections',
        runWrk({ url: base, script: LUA, connections: 50, seconds: SECONDS, env: wrkEnv }),
      ),
    );
    // The same pages without a bearer (no JWT check, no `me`): shows what user-token verification costs.
    console.log(
      line(
        'anonymous, 50 connections',
        runWrk({ url: base, script: LUA, connections: 50, seconds: SECONDS, env: { TOKEN: '' } }),
      ),
    );
  } finally {
    await stopProcess(server.child);
  }
}

async function main(): Promise<void> {
  ensureWrk();
  console.log(
    `bench:leaderboard — ${USERS.toLocaleString('en')} users × 30 days × 8 half-hours × 2 models; wrk ${SECONDS} s; node ${process.version}, ${os.cpus().length} cores`,
  );
  const common = benchServerEnv();
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-lb-'));
  try {
    if (engines.includes('sqlite'))
      await benchEngine('SQLite (embedded, WAL)', { ...common, DATA_DIR: dataDir, DATABASE_URL: '' });
    if (engines.includes('postgres')) {
      if (await pgReachable())
        await benchEngine('PostgreSQL (local server)', {
          ...common,
          DATA_DIR: dataDir,
          DATABASE_URL: await freshPgDatabase('tokentally_bench_leaderboard'),
        });
      else console.log(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped`);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
