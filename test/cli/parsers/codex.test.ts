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

const ID = '0199a000-0000-7000-8000-000000000001';
const CHILD = '0199a000-0000-7000-8000-000000000002';

interface U {
  i: number;
  c: number;
  o: number;
  r: number;
}
const usage = (u: U) => ({
  input_tokens: u.i,
  cached_input_tokens: u.c,
  output_tokens: u.o,
  reasoning_output_tokens: u.r,
  total_tokens: u.i + u.o,
});
const add = (a: U, b: U): U => ({ i: a.i + b.i, c: a.c + b.c, o: a.o + b.o, r: a.r + b.r });

const meta = (ts: string, id: string, extra: object = {}) => ({
  timestamp: ts,
  type: 'session_meta',
  payload: { id, timestamp: ts, cwd: '/nonexistent/work', cli_version: '0.50.0', ...extra },
});
const turn = (ts: string, model: string) => ({
  timestamp: ts,
  type: 'turn_context',
  payload: { cwd: '/nonexistent/work', model },
});
const tc = (ts: string, total: U | undefined, last: U | undefined) => ({
  timestamp: ts,
  type: 'event_msg',
  payload: {
    type: 'token_count',
    info: {
      ...(total ? { total_token_usage: usage(total) } : {}),
      ...(last ? { last_token_usage: usage(last) } : {}),
      model_context_window: 272000,
    },
    rate_limits: null,
  },
});
const infoNull = (ts: string) => ({
  timestamp: ts,
  type: 'event_msg',
  payload: { type: 'token_count', info: null, rate_limits: { primary: { used_percent: 3 } } },
});

const L1: U = { i: 1000, c: 200, o: 100, r: 40 };
const L2: U = { i: 2000, c: 1500, o: 300, r: 100 };
const L3: U = { i: 500, c: 0, o: 50, r: 0 };

let h: TestHome;
let sessions: string;
beforeEach(() => {
  h = makeHome();
  sessions = path.join(h.env['CODEX_HOME'] as string, 'sessions', '2026', '11', '01');
});
afterEach(() => removeHome(h));

const rollout = (id: string) => `rollout-2026-11-01T10-00-00-${id}.jsonl`;

describe('codex parser', () => {
  it('prefers last_token_usage, skips duplicate token_count and info:null, takes the model from turn_context', () => {
    writeJsonl(path.join(sessions, rollout(ID)), [
      meta('2026-11-01T10:00:00.000Z', ID),
      turn('2026-11-01T10:00:01.000Z', 'GPT-5-Codex'),
      infoNull('2026-11-01T10:00:02.000Z'),
      tc('2026-11-01T10:05:00.000Z', L1, L1),
      tc('2026-11-01T10:05:00.500Z', L1, L1), // duplicate event
      tc('2026-11-01T10:10:00.000Z', add(L1, L2), L2),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5-codex': counts(3000, 1700, 400, 140, 3400) });
  });

  it('buckets on the UTC half-hour and splits by model', () => {
    writeJsonl(path.join(sessions, rollout(ID)), [
      meta('2026-11-01T10:00:00.000Z', ID),
      turn('2026-11-01T10:00:01.000Z', 'gpt-5'),
      tc('2026-11-01T10:29:59.999Z', L1, L1),
      turn('2026-11-01T10:30:00.000Z', 'gpt-5-mini'),
      tc('2026-11-01T12:30:00.000+02:00', add(L1, L2), L2), // = 10:30Z
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|codex|gpt-5': counts(1000, 200, 100, 40, 1100),
      '2026-11-01T10:30|codex|gpt-5-mini': counts(2000, 1500, 300, 100, 2300),
    });
  });

  it('treats a total that goes down as a reset and counts only that turn', () => {
    writeJsonl(path.join(sessions, rollout(ID)), [
      turn('2026-11-01T10:00:01.000Z', 'gpt-5'),
      tc('2026-11-01T10:01:00.000Z', add(L1, L2), L2),
      tc('2026-11-01T10:02:00.000Z', L3, L3), // compaction/resume: counter restarted
      tc('2026-11-01T10:03:00.000Z', undefined, L1), // no total at all: last alone
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5': counts(3500, 1700, 450, 140, 3950) });
  });

  it('uses the delta of cumulative totals when last_token_usage is missing', () => {
    writeJsonl(path.join(sessions, rollout(ID)), [
      turn('2026-11-01T10:00:01.000Z', 'gpt-5'),
      tc('2026-11-01T10:01:00.000Z', L1, undefined),
      tc('2026-11-01T10:02:00.000Z', add(L1, L2), undefined),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5': counts(3000, 1700, 400, 140, 3400) });
  });

  it('skips a stale out-of-order snapshot that repeats an earlier total', () => {
    writeJsonl(path.join(sessions, rollout(ID)), [
      turn('2026-11-01T10:00:01.000Z', 'gpt-5'),
      tc('2026-11-01T10:01:00.000Z', L1, L1),
      tc('2026-11-01T10:02:00.000Z', add(L1, L2), L2),
      tc('2026-11-01T10:02:00.100Z', L1, L1), // stale re-send
      tc('2026-11-01T10:03:00.000Z', add(add(L1, L2), L3), L3),
    ]);
    const r = runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5': counts(3500, 1700, 450, 140, 3950) });
    expect(r.agents['codex']?.skipped).toBe(1);
  });

  it('reads archived_sessions, prefers the live copy, and does not double count a move to the archive', () => {
    const rows = [turn('2026-11-01T10:00:01.000Z', 'gpt-5'), tc('2026-11-01T10:01:00.000Z', L1, L1)];
    const archived = path.join(h.env['CODEX_HOME'] as string, 'archived_sessions');
    writeJsonl(path.join(sessions, rollout(ID)), rows);
    writeJsonl(path.join(archived, rollout(ID)), rows); // a stale archived copy of the live file
    writeJsonl(path.join(archived, rollout(CHILD)), [
      turn('2026-11-01T09:00:00.000Z', 'gpt-5'),
      tc('2026-11-01T09:01:00.000Z', L2, L2),
    ]);
    runScan(h.env);
    const first = readBuckets(h.env);
    expect(first).toEqual({
      '2026-11-01T10:00|codex|gpt-5': counts(1000, 200, 100, 40, 1100),
      '2026-11-01T09:00|codex|gpt-5': counts(2000, 1500, 300, 100, 2300),
    });
    // Codex archives the live session: the file moves (same inode), then gains nothing.
    fs.rmSync(path.join(archived, rollout(ID)));
    fs.renameSync(path.join(sessions, rollout(ID)), path.join(archived, rollout(ID)));
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual(first);
  });

  it('skips the parent history replayed into a forked rollout', () => {
    writeJsonl(path.join(sessions, rollout(ID)), [
      meta('2026-11-01T09:00:00.000Z', ID),
      turn('2026-11-01T09:00:01.000Z', 'gpt-5'),
      tc('2026-11-01T09:01:00.000Z', L1, L1),
      tc('2026-11-01T09:02:00.000Z', add(L1, L2), L2),
    ]);
    writeJsonl(path.join(sessions, rollout(CHILD)), [
      meta('2026-11-01T11:00:00.000Z', CHILD, { forked_from_id: ID }),
      meta('2026-11-01T11:00:00.000Z', ID), // the parent's meta, replayed
      turn('2026-11-01T11:00:00.000Z', 'gpt-5'),
      tc('2026-11-01T11:00:00.000Z', L1, L1), // replayed, timestamps rewritten to fork time
      tc('2026-11-01T11:00:00.000Z', add(L1, L2), L2),
      tc('2026-11-01T11:20:00.000Z', add(add(L1, L2), L3), L3), // the fork's own turn
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T09:00|codex|gpt-5': counts(3000, 1700, 400, 140, 3400),
      '2026-11-01T11:00|codex|gpt-5': counts(500, 0, 50, 0, 550),
    });
  });

  it('skips replayed history of a fork whose parent file is gone, by the fork-start window', () => {
    writeJsonl(path.join(sessions, rollout(CHILD)), [
      meta('2026-11-01T11:00:00.000Z', CHILD, { forked_from_id: ID }),
      turn('2026-11-01T11:00:00.000Z', 'gpt-5'),
      tc('2026-10-30T08:00:00.000Z', L1, L1), // original parent timestamps
      tc('2026-11-01T11:00:01.000Z', add(L1, L2), L2),
      tc('2026-11-01T11:20:00.000Z', add(add(L1, L2), L3), L3),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T11:00|codex|gpt-5': counts(500, 0, 50, 0, 550) });
  });

  it('is incremental: appended turns add only themselves, an unchanged tree reads nothing', () => {
    const file = path.join(sessions, rollout(ID));
    writeJsonl(file, [turn('2026-11-01T10:00:01.000Z', 'gpt-5'), tc('2026-11-01T10:01:00.000Z', L1, L1)]);
    runScan(h.env);
    appendJsonl(file, [
      tc('2026-11-01T10:02:00.000Z', add(L1, L2), L2),
      tc('2026-11-01T10:02:00.000Z', add(L1, L2), L2),
    ]);
    const second = runScan(h.env);
    expect(second.agents['codex']?.changed).toBe(1);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5': counts(3000, 1700, 400, 140, 3400) });
    const third = runScan(h.env);
    expect(third.agents['codex']?.changed).toBe(0);
    expect(third.bytesRead).toBe(0);
  });

  it('waits for a half-written last line instead of losing or double counting it', () => {
    const file = path.join(sessions, rollout(ID));
    writeJsonl(file, [turn('2026-11-01T10:00:01.000Z', 'gpt-5')]);
    const line = JSON.stringify(tc('2026-11-01T10:01:00.000Z', L1, L1));
    fs.appendFileSync(file, line.slice(0, 40));
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({});
    fs.appendFileSync(file, `${line.slice(40)}\n`);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5': counts(1000, 200, 100, 40, 1100) });
  });

  it('counts malformed lines and keeps going; a rewritten file is re-read without double counting', () => {
    const file = path.join(sessions, rollout(ID));
    writeJsonl(file, [
      turn('2026-11-01T10:00:01.000Z', 'gpt-5'),
      'not json',
      '{"type":"event_msg","payload":{"type":"token_count"',
      tc('2026-11-01T10:01:00.000Z', L1, L1),
    ]);
    const r = runScan(h.env);
    expect(r.agents['codex']?.malformed).toBe(2);
    // an editor rewrites the file shorter (new inode): its old contribution is taken back
    fs.rmSync(file);
    writeJsonl(file, [turn('2026-11-01T10:00:01.000Z', 'gpt-5'), tc('2026-11-01T10:01:00.000Z', L2, L2)]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|gpt-5': counts(2000, 1500, 300, 100, 2300) });
  });

  it('reports Every Code under its own source', () => {
    writeJsonl(path.join(h.env['CODE_HOME'] as string, 'sessions', '2026', '11', '01', rollout(ID)), [
      turn('2026-11-01T10:00:01.000Z', 'gpt-5'),
      tc('2026-11-01T10:01:00.000Z', L1, L1),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|every-code|gpt-5': counts(1000, 200, 100, 40, 1100) });
  });
});
