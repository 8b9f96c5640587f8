import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { appendJsonl, counts, readBuckets, run, runScan, tempHomeEach, writeJsonl } from '../helpers.js';

const h = tempHomeEach();

const T0 = Date.UTC(2026, 10, 1, 10, 0, 5);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('copilot parser', () => {
  const ev = (type: string, data: object, ts: number, id = `e${ts}`) => ({
    type,
    data,
    id,
    timestamp: iso(ts),
    parentId: null,
  });
  const msg = (mid: string, ts: number, usage: object | undefined, model?: string) =>
    ev(
      'assistant.message',
      {
        messageId: mid,
        content: 'secret',
        interactionId: 'i',
        ...(usage ? { usage } : {}),
        ...(model ? { model } : {}),
      },
      ts,
    );

  it('counts assistant messages that carry usage, with the session model, once across a resumed session', () => {
    const file = path.join(h.env['COPILOT_HOME'] as string, 'session-state', 's1', 'events.jsonl');
    const m1 = msg('m1', T0, { prompt_tokens: 10_000, completion_tokens: 300, cached_tokens: 8_000 });
    writeJsonl(file, [
      ev('session.start', { sessionId: 's1', context: { cwd: '/nonexistent/x' } }, T0 - 5000),
      ev('session.model_change', { newModel: 'claude-sonnet-4.5' }, T0 - 4000),
      ev('user.message', { content: 'secret prompt' }, T0 - 3000),
      msg('m0', T0 - 2000, undefined), // an older build's message: no counts
      m1,
    ]);
    runScan(h.env);
    appendJsonl(file, [
      m1,
      msg(
        'm2',
        T0 + 1_800_000,
        { prompt_tokens: 500, completion_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 50 },
        'gpt-5',
      ),
    ]);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|copilot|claude-sonnet-4.5': counts(2000, 8000, 300, 0, 10300),
      '2026-11-01T10:30|copilot|gpt-5': counts(450, 100, 20, 0, 570),
    });
  });
});

describe('goose parser and crush', () => {
  const dbFile = () => path.join(h.env['GOOSE_DATA_DIR'] as string, 'sessions', 'sessions.db');
  function setSession(id: string, updated: number, input: number, output: number): void {
    fs.mkdirSync(path.dirname(dbFile()), { recursive: true });
    const db = new Database(dbFile());
    db.exec(
      'CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, description TEXT, working_dir TEXT, created_at TIMESTAMP, updated_at TIMESTAMP, input_tokens INTEGER, output_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, model_config_json TEXT)',
    );
    const at = new Date(updated).toISOString().replace('T', ' ').slice(0, 19);
    db.prepare('INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      id,
      'secret',
      '/nonexistent/g',
      at,
      at,
      1,
      1,
      input,
      output,
      JSON.stringify({ model_name: 'gpt-5' }),
    );
    db.close();
  }

  it('files each growth of a session running total at the session update time', () => {
    setSession('20261101_1', T0, 1000, 100);
    runScan(h.env);
    setSession('20261101_1', T0 + 3_600_000, 1500, 130);
    setSession('20261101_2', T0 + 3_600_000, 10, 1);
    runScan(h.env);
    expect(readBuckets(h.env)).toEqual({
      '2026-11-01T10:00|goose|gpt-5': counts(1000, 0, 100, 0, 1100),
      '2026-11-01T11:00|goose|gpt-5': counts(510, 0, 31, 0, 541),
    });
  });

  it('doctor says which tools record no usable token counts', async () => {
    fs.mkdirSync(h.env['CRUSH_DATA_DIR'] as string, { recursive: true });
    fs.mkdirSync(path.join(h.env['COPILOT_HOME'] as string, 'session-state'), { recursive: true });
    writeJsonl(path.join(h.env['PI_CODING_AGENT_DIR'] as string, 'sessions', 'p', 's.jsonl'), [
      { type: 'session', id: 's' },
    ]);
    const r = await run(h.env, ['doctor']);
    expect(r.stdout).toContain('crush: Crush stores only the last request’s token counts');
    expect(r.stdout).toContain('copilot: Copilot CLI writes token counts only in newer builds');
    expect(r.stdout).toMatch(/^-- {4}no logs: .*\bamp\b/m); // the agents without logs, on one line
    expect(r.stdout).toMatch(/^ok {4}pi: 1 log file/m);
    expect(r.stdout).not.toMatch(/^-- {4}no logs: .*\b(pi|copilot|crush)\b/m); // one verdict per agent
  });
});
