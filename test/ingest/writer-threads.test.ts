/**
 * The SQLite writer's threads (the writer thread and the checkpoint thread beside it) never keep a
 * process alive when idle, and an upload in flight does: a script that writes an upload and closes
 * nothing ends once it has its answer, with the answer. Runs a real child process on a database
 * file, in both passes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = (file: string) => JSON.stringify(path.join(root, file));

/** Writes one upload through the real writer on `file`, prints its result, and closes nothing. */
const SCRIPT = `
import { openSqlite } from ${src('src/db/connect.js')};
import { migrateToLatest } from ${src('src/db/migrate.js')};
import { createIngestWriter } from ${src('src/ingest/store.js')};
import { seedBucket, seedDevice, seedUser } from ${src('test/helpers/seed.js')};

const NOW = Date.UTC(2026, 10, 1, 12);
const USER = '00000000-0000-4000-8000-000000000001';
const db = openSqlite(process.argv[2], 5000);
await migrateToLatest(db);
await seedUser(db, USER, NOW);
await seedDevice(db, 'a', USER, NOW);
const rate = 1_000_000n;
const writer = createIngestWriter(db, () => ({ input: rate, cached: rate, output: rate, reasoning: rate }));
const result = await writer.apply({ userId: USER, deviceId: 'a', now: NOW, buckets: [seedBucket(7n)], subscriptions: undefined });
console.log(JSON.stringify(result));
`;

describe('the SQLite writer threads and the life of the process', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-threads-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a script that writes an upload and closes nothing ends with its answer', async () => {
    const script = path.join(dir, 'upload.mts');
    fs.writeFileSync(script, SCRIPT);
    const child = spawn(process.execPath, ['--import', 'tsx', script, path.join(dir, 'tokentally.db')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(killer);
    // Killed (null) had a thread kept it alive; 13 (an unsettled await) had it ended mid-upload.
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(out)).toMatchObject({ inserted: 1, skipped: 0 });
  }, 30_000);
});
