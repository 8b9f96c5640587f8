import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BucketStore } from '../../src/cli/buckets.js';
import { writeFilesDurablySync, type PendingFile } from '../../src/cli/json-file.js';
import { Ledger, shardOf } from '../../src/cli/ledger.js';
import type { Counts } from '../../src/cli/usage.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-ledger-'));
  dirs.push(d);
  return d;
}

/** What a session bucket holds in `store` (zeros when it holds nothing). */
function sessionCounts(store: BucketStore, key: string): Counts {
  const found = new Map(store.sessionEntries()).get(key);
  return found ?? { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
}

const counts = (n: number): Counts => ({ input: n, cached: 2 * n, output: 3 * n, reasoning: 0, total: 6 * n });
const BUCKET_A = '1790611200000\u001fclaude\u001fclaude-sonnet-4-5\u001f\u001esession-a';
const BUCKET_B = '1790613000000\u001fclaude\u001fclaude-opus-4-1\u001fproject\u001esession-b';

describe('ledger shard files', () => {
  it('a saved ledger reads back the same entries: a seen record is the same, a grown one grows by the difference', () => {
    const dir = tempDir();
    const files: Record<string, string> = {};
    const buckets = new BucketStore(dir, {});
    const ledger = new Ledger(dir, 'claude', files);
    expect(ledger.upsert('msg_1\u0000req_1', BUCKET_A, counts(1), { group: 'msg_1', sidechain: false }, buckets)).toBe(
      'new',
    );
    expect(ledger.upsert('msg_2\u0000req_2', BUCKET_B, counts(2), { group: 'msg_2', sidechain: true }, buckets)).toBe(
      'new',
    );
    // a group that is not the id's prefix, and a record without a group
    expect(ledger.upsert('odd-id', BUCKET_A, counts(3), { group: 'other-group' }, buckets)).toBe('new');
    expect(ledger.upsert('req\u0000req_4', BUCKET_B, counts(4), {}, buckets)).toBe('new');
    const writes: PendingFile[] = [];
    ledger.saveDirty(1, writes);
    writeFilesDurablySync(writes);

    const raw = JSON.parse(fs.readFileSync(path.join(dir, files[shardOf('msg_1')] as string), 'utf8')) as {
      v: number;
      b: string[];
    };
    expect(raw.v).toBe(2);
    expect(raw.b).toContain(BUCKET_A);

    const again = new Ledger(dir, 'claude', { ...files });
    const store = new BucketStore(dir, {});
    expect(again.upsert('msg_1\u0000req_1', BUCKET_A, counts(1), { group: 'msg_1', sidechain: false }, store)).toBe(
      'same',
    );
    // the sidechain record is still a sidechain: a main-chain copy of its message makes it a replay
    expect(again.upsert('msg_2\u0000req_9', BUCKET_B, counts(2), { group: 'msg_2', sidechain: false }, store)).toBe(
      'new',
    );
    expect(again.upsert('odd-id', BUCKET_A, counts(3), { group: 'other-group' }, store)).toBe('same');
    expect(again.upsert('req\u0000req_4', BUCKET_B, counts(5), {}, store)).toBe('grew');
    expect(sessionCounts(store, BUCKET_B)).toEqual({ input: 1, cached: 2, output: 3, reasoning: 0, total: 6 });
  });

  it('reads version 1 files (bucket and group written in full)', () => {
    const dir = tempDir();
    const id = 'msg_1\u0000req_1';
    const name = `ledger-claude-${shardOf('msg_1')}.1.json`;
    fs.writeFileSync(
      path.join(dir, name),
      JSON.stringify({ v: 1, e: { [id]: [BUCKET_A, 1, 2, 3, 0, 6, 'msg_1', 1] } }),
    );
    const ledger = new Ledger(dir, 'claude', { [shardOf('msg_1')]: name });
    const store = new BucketStore(dir, {});
    // a sidechain record of msg_1 is known: a main-chain one of the same message replaces it
    expect(ledger.upsert('msg_1\u0000req_2', BUCKET_A, counts(1), { group: 'msg_1', sidechain: false }, store)).toBe(
      'new',
    );
    expect(sessionCounts(store, BUCKET_A)).toEqual({ input: 0, cached: 0, output: 0, reasoning: 0, total: 0 });
  });
});
