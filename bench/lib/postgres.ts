/** @fileoverview The local PostgreSQL a benchmark runs its second pass against. */
import fs from 'node:fs';
import pg from 'pg';

export const BENCH_PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function pgReachable(url = BENCH_PG_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops and creates database `name` on the server of `url`; returns its URL. */
export async function freshPgDatabase(name: string, url = BENCH_PG_URL): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Drops database `name` on the server of `url`, if it exists. */
export async function dropPgDatabase(name: string, url = BENCH_PG_URL): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL backends serving the server's database (its pool's connections) at this moment. */
async function databaseBackends(serverEnv: NodeJS.ProcessEnv): Promise<number[]> {
  if (!serverEnv.DATABASE_URL) return [];
  const client = new pg.Client({ connectionString: serverEnv.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** CPU seconds so far of each PostgreSQL backend serving the server's database, by pid. */
export async function backendsCpu(serverEnv: NodeJS.ProcessEnv): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  for (const pid of await databaseBackends(serverEnv)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the backend ended
    }
  }
  return cpu;
}

/**
 * The backends' CPU seconds between two readings: a backend opened meanwhile counts whole; one that
 * ended meanwhile (the pool closes idle connections) is not known, and counts as nothing rather than
 * as minus what it had used before.
 */
export function backendsCpuSince(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let seconds = 0;
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}
