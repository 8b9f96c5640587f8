import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { appendJsonl, counts, readBuckets, runScan, tempHomeEach, writeJson, writeJsonl } from '../helpers.js';

const h = tempHomeEach();

const ocMsg = (
  id: string,
  created: number,
  t: { i: number; o: number; r: number; cr: number; cw: number },
  model = 'claude-sonnet-4-5',
) => ({
  id,
  sessionID: 'ses_1',
  role: 'assistant',
  modelID: model,
  providerID: 'anthropic',
  mode: 'build',
  cost: 0,
  path: { cwd: '/nonexistent/oc', root: '/nonexistent/oc' },
  time: { created, completed: created + 4000 },
  tokens: { input: t.i, output: t.o, reasoning: t.r, cache: { read: t.cr, write: t.cw } },
});

function makeDb(file: string, rows: { id: string; data: object; omitIdInData?: boolean }[]): void {
  const db = new Database(file);
  db.exec(
    'CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)',
  );
  const ins = db.prepare('INSERT OR REPLACE INTO message VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) {
    const data: Record<string, unknown> = { ...r.data };
    if (r.omitIdInData === true) delete data['id'];
    ins.run(r.id, 'ses_1', 1, 1, JSON.stringify(data));
  }
  db.close();
}

const T0 = Date.UTC(2026, 10, 1, 10, 0, 5);

describe('opencode parser', () => {
  it('reads the SQLite database with disjoint meaning (cache write is input, reasoning separate)', () => {
    const dir = h.env['OPENCODE_DATA_DIR'] as string;
    writeJson(path.join(dir, 'placeholder.json'), {});
    makeDb(path.join(dir, 'opencode.db'), [
      { id: 'msg_1', data: ocMsg('msg_1', T0, { i: 100, o: 50, r: 25, cr: 4000, cw: 300 }), omitIdInData: true },
      { id: 'msg_u', data: { id: 'msg_u', role: 'user', time: { created: T0 } } },
      { id: 'msg_2', data: ocMsg('msg_2', T0 + 40 * 60_000, { i: 1, o: 2, r: 0, cr: 0, cw: 0 }, 'gpt-5') },
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|opencode|claude-sonnet-4-5': counts(400, 4000, 50, 25, 4475),
      '2026-11-01T10:30|opencode|gpt-5': counts(1, 0, 2, 0, 3),
    });
  });

  it('counts a message once when the JSON→SQLite migration left it in both, and when it grows later', () => {
    const dir = h.env['OPENCODE_DATA_DIR'] as string;
    const partial = ocMsg('msg_1', T0, { i: 100, o: 10, r: 0, cr: 4000, cw: 300 });
    const full = ocMsg('msg_1', T0, { i: 100, o: 50, r: 25, cr: 4000, cw: 300 });
    writeJson(path.join(dir, 'storage', 'message', 'ses_1', 'msg_1.json'), partial);
    writeJson(path.join(dir, 'storage', 'session', 'prj', 'ses_1.json'), { id: 'ses_1', title: 'secret title' });
    runScan(h.env);
    makeDb(path.join(dir, 'opencode.db'), [{ id: 'msg_1', data: full }]);
    runScan(h.env);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|opencode|claude-sonnet-4-5': counts(400, 4000, 50, 25, 4475),
    });
  });

  it('reads only rows updated since the last pass, and sees a message grow', () => {
    const dir = h.env['OPENCODE_DATA_DIR'] as string;
    const file = path.join(dir, 'opencode.db');
    writeJson(path.join(dir, 'x.json'), {});
    makeDb(file, [{ id: 'msg_1', data: ocMsg('msg_1', T0, { i: 100, o: 10, r: 0, cr: 4000, cw: 300 }) }]);
    runScan(h.env);
    const db = new Database(file);
    db.prepare('UPDATE message SET data = ?, time_updated = 5 WHERE id = ?').run(
      JSON.stringify(ocMsg('msg_1', T0, { i: 100, o: 50, r: 25, cr: 4000, cw: 300 })),
      'msg_1',
    );
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(
      'msg_2',
      'ses_1',
      6,
      6,
      JSON.stringify(ocMsg('msg_2', T0, { i: 1, o: 1, r: 0, cr: 0, cw: 0 })),
    );
    db.close();
    const second = runScan(h.env);
    expect(second.agents['opencode']?.records).toBe(1);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|opencode|claude-sonnet-4-5': counts(401, 4000, 51, 25, 4477),
    });
  });

  it('treats epoch seconds like milliseconds', () => {
    const dir = h.env['OPENCODE_DATA_DIR'] as string;
    writeJson(
      path.join(dir, 'storage', 'message', 'ses_1', 'msg_9.json'),
      ocMsg('msg_9', T0 / 1000, { i: 1, o: 1, r: 0, cr: 0, cw: 0 }),
    );
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|opencode|claude-sonnet-4-5': counts(1, 0, 1, 0, 2) });
  });
});

describe('kimi parser', () => {
  it('reads legacy wire.jsonl StatusUpdate events, keyed by message id', () => {
    const file = path.join(h.env['KIMI_HOME'] as string, 'sessions', 'wd1', 'sess1', 'wire.jsonl');
    const status = (mid: string, ts: number, other: number, read: number, create: number, out: number) => ({
      timestamp: ts,
      message: {
        type: 'StatusUpdate',
        payload: {
          context_usage: 0.07,
          token_usage: { input_other: other, output: out, input_cache_read: read, input_cache_creation: create },
          message_id: mid,
        },
      },
    });
    writeJsonl(file, [
      { timestamp: T0 / 1000, message: { type: 'TurnBegin', payload: { user_input: 'secret' } } },
      status('chatcmpl-1', T0 / 1000, 1244, 69376, 0, 155),
      status('chatcmpl-1', T0 / 1000 + 1, 1244, 69376, 0, 155), // repeated status for the same message
    ]);
    runScan(h.env);
    appendJsonl(file, [status('chatcmpl-2', T0 / 1000 + 1800, 10, 0, 5, 1)]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|kimi|unknown': counts(1244, 69376, 155, 0, 70775),
      '2026-11-01T10:30|kimi|unknown': counts(15, 0, 1, 0, 16),
    });
  });

  it('reads turn-scoped Kimi Code usage.record rows with the model of the preceding llm.request', () => {
    const file = path.join(
      h.env['KIMI_CODE_HOME'] as string,
      'sessions',
      'key',
      'sess',
      'agents',
      'main',
      'wire.jsonl',
    );
    const rec = (usageScope: string, other: number) => ({
      type: 'usage.record',
      time: new Date(T0).toISOString(),
      model: 'k3',
      usageScope,
      usage: { inputOther: other, output: 20, inputCacheRead: 1000, inputCacheCreation: 50 },
    });
    writeJsonl(file, [
      { type: 'metadata', protocol_version: '1.4' },
      { type: 'config.update', modelAlias: 'k3' },
      { type: 'llm.request', model: 'kimi-k3', kind: 'chat' },
      rec('turn', 100),
      rec('session', 100), // running total: not counted again
    ]);
    runScan(h.env);
    appendJsonl(file, [rec('turn', 10)]); // model remembered across syncs
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|kimi|kimi-k3': counts(210, 2000, 40, 0, 2250) });
  });
});
