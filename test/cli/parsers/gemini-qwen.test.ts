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
  writeJson,
  writeJsonl,
  type TestHome,
} from '../helpers.js';

let h: TestHome;
let chats: string;
beforeEach(() => {
  h = makeHome();
  chats = path.join(h.env['GEMINI_CLI_HOME'] as string, '.gemini', 'tmp', 'a1b2c3', 'chats');
});
afterEach(() => removeHome(h));

const gem = (
  id: string,
  ts: string,
  t: { input: number; output: number; cached: number; thoughts: number; tool: number; total?: number },
  model = 'gemini-2.5-pro',
) => ({
  id,
  timestamp: ts,
  type: 'gemini',
  content: 'answer text',
  model,
  tokens: { ...t, total: t.total ?? t.input + t.output + t.thoughts + t.tool },
});

describe('gemini parser', () => {
  it('reads legacy session JSON: cached is split out of input, thoughts are reasoning, tool tokens are input', () => {
    writeJson(path.join(chats, 'session-2026-11-01T10-00-aaaa.json'), {
      sessionId: 's1',
      projectHash: 'a1b2c3',
      startTime: '2026-11-01T10:00:00.000Z',
      messages: [
        { id: 'u1', timestamp: '2026-11-01T10:00:01.000Z', type: 'user', content: 'prompt' },
        gem('g1', '2026-11-01T10:00:05.000Z', { input: 1000, output: 200, cached: 600, thoughts: 50, tool: 10 }),
        { id: 'i1', type: 'info', content: 'x' },
        gem('g2', '2026-11-01T10:40:00.000Z', { input: 3000, output: 100, cached: 2500, thoughts: 0, tool: 0 }),
      ],
    });
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|gemini|gemini-2.5-pro': counts(410, 600, 200, 50, 1260),
      '2026-11-01T10:30|gemini|gemini-2.5-pro': counts(500, 2500, 100, 0, 3100),
    });
  });

  it('re-reads a rewritten legacy document without double counting, and dedupes its JSONL successor', () => {
    const doc = path.join(chats, 'session-2026-11-01T10-00-aaaa.json');
    const g1 = gem('g1', '2026-11-01T10:00:05.000Z', { input: 100, output: 20, cached: 0, thoughts: 0, tool: 0 });
    writeJson(doc, { sessionId: 's1', messages: [g1] });
    runScan(h.env);
    const g2 = gem('g2', '2026-11-01T10:05:00.000Z', { input: 300, output: 30, cached: 100, thoughts: 5, tool: 0 });
    writeJson(doc, { sessionId: 's1', messages: [g1, g2] });
    // migration leftover: the same session as JSONL (metadata line, then records)
    writeJsonl(path.join(chats, 'session-2026-11-01T10-00-aaaa.jsonl'), [
      { sessionId: 's1', projectHash: 'a1b2c3', startTime: '2026-11-01T10:00:00.000Z', kind: 'main' },
      g1,
      g2,
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|gemini|gemini-2.5-pro': counts(300, 100, 50, 5, 455) });
  });

  it('reads JSONL sessions incrementally, including nested subagent files and re-appended updates', () => {
    const main = path.join(chats, 'session-2026-11-01T11-00-bbbb.jsonl');
    writeJsonl(main, [
      { sessionId: 's2', startTime: '2026-11-01T11:00:00.000Z' },
      gem('g1', '2026-11-01T11:00:05.000Z', { input: 10, output: 1, cached: 0, thoughts: 0, tool: 0 }),
    ]);
    writeJsonl(path.join(chats, 'session-2026-11-01T11-00-bbbb', 'sub-1.jsonl'), [
      gem(
        's1',
        '2026-11-01T11:01:00.000Z',
        { input: 5, output: 5, cached: 0, thoughts: 0, tool: 0 },
        'gemini-2.5-flash',
      ),
    ]);
    runScan(h.env);
    appendJsonl(main, [
      gem('g1', '2026-11-01T11:00:05.000Z', { input: 10, output: 7, cached: 0, thoughts: 2, tool: 0 }),
      'oops',
    ]);
    const r = runScan(h.env);
    expect(r.agents['gemini']?.malformed).toBe(1);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T11:00|gemini|gemini-2.5-pro': counts(10, 0, 7, 2, 19),
      '2026-11-01T11:00|gemini|gemini-2.5-flash': counts(5, 0, 5, 0, 10),
    });
  });

  it('merges message_update rows and $set message snapshots by message id', () => {
    const file = path.join(chats, 'd5c7438f-efb0-42eb-bc11-be33312d3077', '0la501.jsonl');
    writeJsonl(file, [
      { sessionId: 's3', projectHash: 'a1b2c3', startTime: '2026-11-01T12:00:00.000Z', kind: 'main' },
      { id: 'u1', timestamp: '2026-11-01T12:00:01.000Z', type: 'user', content: [{ text: 'secret' }] },
      gem('g1', '2026-11-01T12:00:05.000Z', { input: 100, output: 0, cached: 40, thoughts: 0, tool: 0 }),
      {
        type: 'message_update',
        id: 'g1',
        tokens: { input: 100, output: 30, cached: 40, thoughts: 4, tool: 0, total: 134 },
      },
      {
        $set: {
          lastUpdated: '2026-11-01T12:01:00.000Z',
          messages: [gem('g2', '2026-11-01T12:01:00.000Z', { input: 10, output: 2, cached: 0, thoughts: 0, tool: 0 })],
        },
      },
      {
        $set: {
          messages: [gem('g2', '2026-11-01T12:01:00.000Z', { input: 10, output: 2, cached: 0, thoughts: 0, tool: 0 })],
        },
      },
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T12:00|gemini|gemini-2.5-pro': counts(70, 40, 32, 4, 146) });
  });

  it('survives a corrupt legacy document', () => {
    fs.mkdirSync(chats, { recursive: true });
    fs.writeFileSync(path.join(chats, 'session-x.json'), '{"messages": [');
    const r = runScan(h.env);
    expect(r.agents['gemini']?.malformed).toBe(1);
    expect(readBuckets(h.env)).toEqual({});
  });
});

const qwenLine = (
  uuid: string,
  ts: string,
  m: { p: number; c: number; cand: number; th: number },
  model = 'qwen3-coder-plus',
) => ({
  uuid,
  parentUuid: null,
  sessionId: 'q1',
  timestamp: ts,
  type: 'assistant',
  cwd: '/nonexistent/q',
  model,
  message: { role: 'model', parts: [{ text: 'hi' }] },
  usageMetadata: {
    promptTokenCount: m.p,
    cachedContentTokenCount: m.c,
    candidatesTokenCount: m.cand,
    thoughtsTokenCount: m.th,
    totalTokenCount: m.p + m.cand + m.th,
  },
});

describe('qwen parser', () => {
  it('reads both chat layouts with disjoint gemini-family meaning and dedupes copies by uuid', () => {
    const q = h.env['QWEN_HOME'] as string;
    const a = qwenLine('u-1', '2026-11-01T10:00:00.000Z', { p: 1000, c: 800, cand: 100, th: 20 });
    writeJsonl(path.join(q, 'projects', 'proj', 'chats', 'q1.jsonl'), [
      { type: 'user', uuid: 'x', timestamp: '2026-11-01T10:00:00.000Z', message: { parts: [{ text: 'secret' }] } },
      a,
    ]);
    writeJsonl(path.join(q, 'tmp', 'abc', 'chats', 'q1.jsonl'), [
      a,
      qwenLine('u-2', '2026-11-01T10:31:00.000Z', { p: 50, c: 0, cand: 5, th: 0 }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|qwen|qwen3-coder-plus': counts(200, 800, 100, 20, 1120),
      '2026-11-01T10:30|qwen|qwen3-coder-plus': counts(50, 0, 5, 0, 55),
    });
  });
});
