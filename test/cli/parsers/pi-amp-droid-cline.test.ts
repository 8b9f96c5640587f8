import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { droidModel } from '../../../src/cli/parsers/droid.js';
import { appendJsonl, counts, readBuckets, runScan, tempHomeEach, writeJson, writeJsonl } from '../helpers.js';

const h = tempHomeEach();

const T0 = Date.UTC(2026, 10, 1, 10, 0, 5);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('pi and OpenClaw parsers', () => {
  const piMsg = (
    id: string,
    ts: number,
    u: { i: number; o: number; cr: number; cw: number },
    model = 'claude-opus-4-5',
  ) => ({
    type: 'message',
    id,
    parentId: null,
    timestamp: iso(ts),
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'secret' }],
      provider: 'anthropic',
      model,
      usage: {
        input: u.i,
        output: u.o,
        cacheRead: u.cr,
        cacheWrite: u.cw,
        totalTokens: u.i + u.o + u.cr + u.cw,
        cost: { total: 0.1 },
      },
      timestamp: ts,
    },
  });

  it('reads assistant usage incrementally, and counts a message copied into a forked session once', () => {
    const dir = path.join(h.env['PI_CODING_AGENT_DIR'] as string, 'sessions', '--home-dev-app--');
    const a = piMsg('a1b2c3d4', T0, { i: 10, o: 200, cr: 5000, cw: 300 });
    writeJsonl(path.join(dir, '2026-11-01T10-00-00-000Z_1111.jsonl'), [
      { type: 'session', id: '1111', timestamp: iso(T0), cwd: '/nonexistent/app' },
      { type: 'message', id: 'u1', message: { role: 'user', content: 'secret prompt', timestamp: T0 } },
      a,
    ]);
    runScan(h.env);
    appendJsonl(path.join(dir, '2026-11-01T10-00-00-000Z_1111.jsonl'), [
      piMsg('e5f6a7b8', T0 + 1_800_000, { i: 1, o: 2, cr: 0, cw: 0 }, 'gpt-5.2-codex'),
      '{"type":"message","usage":',
    ]); // a torn line
    // the fork copies the history (same entry id and time), then goes on
    writeJsonl(path.join(dir, '2026-11-01T11-00-00-000Z_2222.jsonl'), [
      { type: 'session', id: '2222', parentSession: '1111' },
      a,
      piMsg('99990000', T0 + 1_800_000 + 60_000, { i: 3, o: 4, cr: 0, cw: 0 }),
    ]);
    const r = runScan(h.env);
    expect(r.agents['pi']?.malformed).toBe(1);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|pi|claude-opus-4-5': counts(310, 5000, 200, 0, 5510),
      '2026-11-01T10:30|pi|gpt-5.2-codex': counts(1, 0, 2, 0, 3),
      '2026-11-01T10:30|pi|claude-opus-4-5': counts(3, 0, 4, 0, 7),
    });
  });

  it('reads OpenClaw agents in the same format under their own source', () => {
    writeJsonl(path.join(h.env['OPENCLAW_STATE_DIR'] as string, 'agents', 'main', 'sessions', 's1.jsonl'), [
      piMsg('x1', T0, { i: 5, o: 5, cr: 0, cw: 0 }, 'gpt-5'),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|openclaw|gpt-5': counts(5, 0, 5, 0, 10) });
  });
});

describe('amp parser', () => {
  const file = () => path.join(h.env['AMP_DATA_DIR'] as string, 'threads', 'T-0b1c.json');
  const thread = (events: object[], messages: object[]) => ({
    v: 3,
    id: 'T-0b1c',
    created: T0,
    title: 'secret',
    messages,
    usageLedger: { events },
  });

  it('takes each ledger inference with its message cache counts, and re-reads the rewritten thread without double counting', () => {
    const m1 = {
      messageId: 1,
      role: 'assistant',
      content: [{ type: 'text', text: 'secret' }],
      usage: {
        model: 'claude-sonnet-4-5',
        inputTokens: 10,
        outputTokens: 100,
        cacheReadInputTokens: 4000,
        cacheCreationInputTokens: 500,
      },
    };
    const e1 = {
      id: 'ev1',
      timestamp: iso(T0),
      model: 'claude-sonnet-4-5',
      tokens: { input: 10, output: 100 },
      operationType: 'inference',
      fromMessageId: 0,
      toMessageId: 1,
    };
    writeJson(file(), thread([e1], [{ messageId: 0, role: 'user', content: 'secret' }, m1]));
    runScan(h.env);
    const e2 = {
      id: 'ev2',
      timestamp: iso(T0 + 1_800_000),
      model: 'claude-sonnet-4-5',
      tokens: { input: 20, output: 50 },
      toMessageId: 3,
    };
    writeJson(
      file(),
      thread(
        [e1, e2],
        [m1, { messageId: 3, role: 'assistant', usage: { cacheReadInputTokens: 100, cacheCreationInputTokens: 0 } }],
      ),
    );
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|amp|claude-sonnet-4-5': counts(510, 4000, 100, 0, 4610),
      '2026-11-01T10:30|amp|claude-sonnet-4-5': counts(20, 100, 50, 0, 170),
    });
  });

  it('falls back to message usage in a thread without a ledger', () => {
    writeJson(file(), {
      id: 'T-0b1c',
      created: T0,
      messages: [
        {
          messageId: 1,
          role: 'assistant',
          usage: { model: 'gpt-5', inputTokens: 7, outputTokens: 3, timestamp: iso(T0) },
        },
      ],
    });
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|amp|gpt-5': counts(7, 0, 3, 0, 10) });
  });
});

describe('droid parser', () => {
  const file = () => path.join(h.env['FACTORY_HOME'] as string, 'sessions', '-home-dev-app', '5f0e.settings.json');
  const write = (t: { i: number; o: number; cw: number; cr: number; th: number }, at: number, replace = false) => {
    const body = JSON.stringify({
      model: 'custom:Claude-Opus-4.5-Thinking-[Anthropic]-0',
      providerLock: 'anthropic',
      providerLockTimestamp: iso(T0),
      tokenUsage: {
        inputTokens: t.i,
        outputTokens: t.o,
        cacheCreationTokens: t.cw,
        cacheReadTokens: t.cr,
        thinkingTokens: t.th,
      },
    });
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    if (replace) {
      fs.writeFileSync(`${file()}.tmp`, body);
      fs.renameSync(`${file()}.tmp`, file()); // Droid rewrites by rename: a new inode
    } else fs.writeFileSync(file(), body);
    fs.utimesSync(file(), at / 1000, at / 1000);
  };

  it('files each increase of the running session total in the half-hour the file changed, across renames', () => {
    write({ i: 100, o: 10, cw: 50, cr: 1000, th: 5 }, T0);
    runScan(h.env);
    write({ i: 150, o: 30, cw: 50, cr: 3000, th: 5 }, T0 + 3_600_000, true);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|droid|claude-opus-4-5-thinking': counts(150, 1000, 10, 5, 1165),
      '2026-11-01T11:00|droid|claude-opus-4-5-thinking': counts(50, 2000, 20, 0, 2070),
    });
  });

  it('starts over when the total went down (a replaced session)', () => {
    write({ i: 100, o: 10, cw: 0, cr: 0, th: 0 }, T0);
    runScan(h.env);
    write({ i: 40, o: 4, cw: 0, cr: 0, th: 0 }, T0 + 3_600_000);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T11:00|droid|claude-opus-4-5-thinking': counts(40, 0, 4, 0, 44) });
  });

  it('reduces Droid model names to the model', () => {
    expect(droidModel('custom:Claude-Opus-4.5-Thinking-[Anthropic]-0')).toBe('claude-opus-4-5-thinking');
    expect(droidModel('gpt-5-codex')).toBe('gpt-5-codex');
  });
});

describe('Cline, Roo Code and Kilo Code parsers', () => {
  const storage = () => h.env['VSCODE_GLOBAL_STORAGE'] as string;
  const req = (ts: number, r: object | null) => ({
    ts,
    type: 'say',
    say: 'api_req_started',
    text: JSON.stringify(r === null ? { request: 'secret prompt' } : { request: 'secret', ...r }),
  });

  it('keys each request by task and time, so the entry filled in after streaming replaces its empty first copy', () => {
    const task = path.join(storage(), 'saoudrizwan.claude-dev', 'tasks', '1730455205000');
    writeJson(path.join(task, 'task_metadata.json'), {
      files_in_context: [],
      model_usage: [
        { ts: T0 - 1000, model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' },
        { ts: T0 + 1_000_000, model_id: 'gpt-5', model_provider_id: 'openai', mode: 'act' },
      ],
    });
    writeJson(path.join(task, 'ui_messages.json'), [
      { ts: T0 - 2000, type: 'say', say: 'task', text: 'secret' },
      req(T0, null),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({});
    writeJson(path.join(task, 'ui_messages.json'), [
      req(T0, { tokensIn: 12, tokensOut: 300, cacheWrites: 2000, cacheReads: 9000, cost: 0.05 }),
      req(T0 + 1_800_000, { tokensIn: 5000, tokensOut: 40, cacheWrites: 0, cacheReads: 4000, apiProtocol: 'openai' }),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|cline|claude-sonnet-4-5': counts(2012, 9000, 300, 0, 11312),
      '2026-11-01T10:30|cline|gpt-5': counts(1000, 4000, 40, 0, 5040),
    });
  });

  it('reads Roo Code and Kilo Code task folders under their own sources (model unknown without metadata)', () => {
    for (const ext of ['rooveterinaryinc.roo-cline', 'kilocode.kilo-code']) {
      writeJson(path.join(storage(), ext, 'tasks', 't1', 'ui_messages.json'), [
        req(T0, { tokensIn: 1, tokensOut: 2, cacheWrites: 0, cacheReads: 0, apiProtocol: 'anthropic' }),
      ]);
    }
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|roo-code|unknown': counts(1, 0, 2, 0, 3),
      '2026-11-01T10:00|kilo-code|unknown': counts(1, 0, 2, 0, 3),
    });
  });
});
