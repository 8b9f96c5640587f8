import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendJsonl,
  counts,
  makeHome,
  readBuckets,
  removeHome,
  runScan,
  writeJsonl,
  type TestHome,
} from '../helpers.js';

interface Line {
  ts: string;
  msg?: string;
  req?: string;
  model?: string;
  i?: number;
  cw?: number;
  cr?: number;
  o?: number;
  side?: boolean;
  session?: string;
}
const assistant = (l: Line) => ({
  parentUuid: null,
  isSidechain: l.side ?? false,
  userType: 'external',
  cwd: '/nonexistent/proj',
  sessionId: l.session ?? 'sess-1',
  version: '2.0.30',
  type: 'assistant',
  ...(l.req !== undefined ? { requestId: l.req } : {}),
  timestamp: l.ts,
  message: {
    ...(l.msg !== undefined ? { id: l.msg } : {}),
    type: 'message',
    role: 'assistant',
    model: l.model ?? 'claude-sonnet-4-5-20250929',
    content: [{ type: 'text', text: 'hello' }],
    usage: {
      input_tokens: l.i ?? 0,
      cache_creation_input_tokens: l.cw ?? 0,
      cache_read_input_tokens: l.cr ?? 0,
      cache_creation: { ephemeral_5m_input_tokens: l.cw ?? 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: l.o ?? 0,
      service_tier: 'standard',
    },
  },
});
const user = (ts: string) => ({
  type: 'user',
  timestamp: ts,
  message: { role: 'user', content: 'secret prompt text' },
});

let h: TestHome;
let project: string;
beforeEach(() => {
  h = makeHome();
  project = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', '-nonexistent-proj');
});
afterEach(() => removeHome(h));

const M = 'claude-sonnet-4-5-20250929';

describe('claude parser', () => {
  it('maps usage to disjoint wire counts: cache creation is input, cache read is cached, total covers all', () => {
    writeJsonl(path.join(project, 'sess-1.jsonl'), [
      user('2026-11-01T10:00:00.000Z'),
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'req_1', i: 10, cw: 2000, cr: 30000, o: 500 }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(2010, 30000, 500, 0, 32510) });
  });

  it('keeps the fullest of the streaming duplicates of one message id + request id', () => {
    writeJsonl(path.join(project, 'sess-1.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'req_1', i: 10, cw: 2000, cr: 30000, o: 1 }),
      assistant({ ts: '2026-11-01T10:00:06.000Z', msg: 'msg_1', req: 'req_1', i: 10, cw: 2000, cr: 30000, o: 120 }),
      assistant({ ts: '2026-11-01T10:00:09.000Z', msg: 'msg_1', req: 'req_1', i: 10, cw: 2000, cr: 30000, o: 480 }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(2010, 30000, 480, 0, 32490) });
  });

  it('keeps the fullest line even when it arrives in a later sync', () => {
    const file = path.join(project, 'sess-1.jsonl');
    writeJsonl(file, [assistant({ ts: '2026-11-01T10:29:59.000Z', msg: 'msg_1', req: 'req_1', i: 10, o: 1 })]);
    runScan(h.env);
    appendJsonl(file, [assistant({ ts: '2026-11-01T10:30:02.000Z', msg: 'msg_1', req: 'req_1', i: 10, o: 300 })]);
    runScan(h.env);
    // stays in the bucket where the message was first seen
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(10, 0, 300, 0, 310) });
  });

  it('dedupes messages copied into another file by a continued session', () => {
    const a = assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'req_1', i: 100, cr: 1000, o: 50 });
    writeJsonl(path.join(project, 'sess-1.jsonl'), [a]);
    writeJsonl(path.join(project, 'sess-2.jsonl'), [
      { ...a, sessionId: 'sess-2' },
      assistant({ ts: '2026-11-01T11:00:00.000Z', msg: 'msg_2', req: 'req_2', i: 7, o: 3, session: 'sess-2' }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      [`2026-11-01T10:00|claude|${M}`]: counts(100, 1000, 50, 0, 1150),
      [`2026-11-01T11:00|claude|${M}`]: counts(7, 0, 3, 0, 10),
    });
  });

  it('dedupes across files seen in different syncs too', () => {
    const a = assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'req_1', i: 100, o: 50 });
    writeJsonl(path.join(project, 'sess-1.jsonl'), [a]);
    runScan(h.env);
    writeJsonl(path.join(project, 'sess-2.jsonl'), [a]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(100, 0, 50, 0, 150) });
  });

  it('falls back to the message id when requestId is absent', () => {
    writeJsonl(path.join(project, 'sess-1.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', i: 100, o: 5 }),
      assistant({ ts: '2026-11-01T10:00:06.000Z', msg: 'msg_1', i: 100, o: 50 }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(100, 0, 50, 0, 150) });
  });

  it('scopes a request-id-less message id to its session (gateways reuse ids)', () => {
    writeJsonl(path.join(project, 'sess-1.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_gw', i: 100, o: 5, session: 'a' }),
      assistant({ ts: '2026-11-01T10:00:06.000Z', msg: 'msg_gw', i: 100, o: 50, session: 'a' }),
    ]);
    writeJsonl(path.join(project, 'sess-2.jsonl'), [
      assistant({ ts: '2026-11-01T10:10:00.000Z', msg: 'msg_gw', i: 7, o: 3, session: 'b' }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(107, 0, 53, 0, 160) });
  });

  it('drops a /btw sidechain replay of a parent message (same message id, new request id), in either order', () => {
    const parent = assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'req_1', i: 100, cr: 900, o: 50 });
    const replay = assistant({
      ts: '2026-11-01T10:40:00.000Z',
      msg: 'msg_1',
      req: 'req_9',
      i: 100,
      cr: 900,
      o: 50,
      side: true,
    });
    writeJsonl(path.join(project, 'sess-1.jsonl'), [parent, replay]);
    runScan(h.env);
    const expected = { [`2026-11-01T10:00|claude|${M}`]: counts(100, 900, 50, 0, 1050) };
    expect(readBuckets(h.env)).toEqual(expected);

    const h2 = makeHome();
    try {
      const p2 = path.join(h2.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'x');
      writeJsonl(path.join(p2, 'a.jsonl'), [replay]);
      runScan(h2.env);
      writeJsonl(path.join(p2, 'b.jsonl'), [parent]);
      runScan(h2.env);
      expect(readBuckets(h2.env)).toEqual(expected);
    } finally {
      removeHome(h2);
    }
  });

  it('counts genuine subagent sidechains in subagents/ files', () => {
    writeJsonl(path.join(project, 'sess-1.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'req_1', i: 100, o: 50 }),
    ]);
    writeJsonl(path.join(project, 'sess-1', 'subagents', 'agent-abc.jsonl'), [
      assistant({
        ts: '2026-11-01T10:01:00.000Z',
        msg: 'msg_s1',
        req: 'req_s1',
        i: 40,
        cw: 60,
        o: 20,
        side: true,
        model: 'claude-haiku-4-5',
      }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      [`2026-11-01T10:00|claude|${M}`]: counts(100, 0, 50, 0, 150),
      '2026-11-01T10:00|claude|claude-haiku-4-5': counts(100, 0, 20, 0, 120),
    });
  });

  it('ignores zero-usage synthetic rows and counts malformed lines without stopping', () => {
    writeJsonl(path.join(project, 'sess-1.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_syn', model: '<synthetic>' }),
      '{"type":"assistant","usage": {broken',
      'garbage',
      assistant({ ts: 'not a date', msg: 'msg_bad', req: 'r', i: 5 }),
      assistant({ ts: '2026-11-01T10:00:07.000Z', msg: 'msg_2', req: 'req_2', i: 1, o: 2 }),
    ]);
    const r = runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(1, 0, 2, 0, 3) });
    expect(r.agents['claude']?.malformed).toBe(3);
  });

  it('reads every directory of a comma-separated CLAUDE_CONFIG_DIR', () => {
    const second = path.join(h.root, 'claude2');
    h.env['CLAUDE_CONFIG_DIR'] = `${h.env['CLAUDE_CONFIG_DIR']},${second}`;
    writeJsonl(path.join(project, 's.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_1', req: 'r1', i: 1, o: 1 }),
    ]);
    writeJsonl(path.join(second, 'projects', 'p', 's.jsonl'), [
      assistant({ ts: '2026-11-01T10:00:05.000Z', msg: 'msg_2', req: 'r2', i: 2, o: 2 }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ [`2026-11-01T10:00|claude|${M}`]: counts(3, 0, 3, 0, 6) });
  });

  it('skips usage outside the window the server accepts (before 2020, more than a day ahead)', () => {
    writeJsonl(path.join(project, 's.jsonl'), [
      assistant({ ts: '2019-12-31T23:59:59.000Z', msg: 'm1', req: 'r1', i: 1 }),
      assistant({ ts: '2026-11-04T00:00:00.000Z', msg: 'm2', req: 'r2', i: 1 }),
    ]);
    const r = runScan(h.env);
    expect(readBuckets(h.env)).toEqual({});
    expect(r.agents['claude']?.skipped).toBe(2);
    expect(fs.existsSync(project)).toBe(true);
  });
});
