/**
 * `report --by session`: one row per agent session, from real log files (Claude Code sessions
 * with subagent and copied lines, a Codex rollout), exact against the other reports, the same
 * text through a pipe and on a terminal, and kept exact when a file is replaced or usage was
 * read before sessions were kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLUMNS_NOTE } from '../../src/cli/commands/report.js';
import { stripColour } from '../../src/cli/style.js';
import { ownPaths } from '../../src/cli/paths.js';
import { run, tempHomeEach, ttySink, writeJsonl } from './helpers.js';

const h = tempHomeEach();

const A = '3f2a9c1e-7b4d-4e21-9a0f-5c6d7e8f9a0b';
const B = '8c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const ROLLOUT = '019a2b3c-4d5e-7f60-8a9b-0c1d2e3f4a5b';

const claude = (n: number, ts: string, session: string, cwd: string, extra: object = {}) => ({
  type: 'assistant',
  timestamp: ts,
  sessionId: session,
  cwd,
  requestId: `r${n}`,
  message: {
    id: `m${n}`,
    model: 'claude-sonnet-4-5-20250929',
    usage: { input_tokens: 100, cache_creation_input_tokens: 200, cache_read_input_tokens: 1000, output_tokens: 10 },
  },
  ...extra,
});

const codexTurn = (ts: string, total = 1100) => ({
  timestamp: ts,
  type: 'event_msg',
  payload: {
    type: 'token_count',
    info: {
      last_token_usage: {
        input_tokens: total - 100,
        cached_input_tokens: 800,
        output_tokens: 100,
        reasoning_output_tokens: 60,
        total_tokens: total,
      },
    },
  },
});

interface Row {
  key: string;
  source: string;
  session?: string;
  project?: string;
  start: string;
  end: string;
  total_tokens: number;
  cost_usd: string;
}

async function sessions(
  args: string[] = [],
): Promise<{ rows: Row[]; totals: { total_tokens: number; cost_usd: string } }> {
  const r = await run(h.env, ['report', '--json', '--by', 'session', '--tz', 'UTC', ...args]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as never;
}

function writeTree(): { repo: string; rollout: string } {
  const repo = path.join(h.root, 'work', 'widgets');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:octo/widgets.git\n');
  const projects = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', '-work-widgets');
  const fileA = path.join(projects, `${A}.jsonl`);
  writeJsonl(fileA, [
    { type: 'user', timestamp: '2026-11-01T09:05:00Z', sessionId: A, message: { role: 'user', content: 'hi' } },
    claude(1, '2026-11-01T09:10:00Z', A, repo),
    claude(1, '2026-11-01T09:10:00Z', A, repo), // a streaming duplicate: counted once
    claude(2, '2026-11-01T10:40:00Z', A, repo),
  ]);
  // a subagent of session A names A as its session
  writeJsonl(path.join(projects, A, 'subagents', 'agent-1.jsonl'), [
    claude(3, '2026-11-01T10:45:00Z', A, repo, { isSidechain: true }),
  ]);
  // session B continues A: the copied message counts once, where it was first read
  writeJsonl(path.join(projects, `${B}.jsonl`), [
    claude(2, '2026-11-01T10:40:00Z', B, repo),
    claude(4, '2026-11-02T08:00:00Z', B, path.join(h.root, 'elsewhere')),
  ]);
  const rollout = path.join(
    h.env['CODEX_HOME'] as string,
    'sessions',
    '2026',
    '11',
    '01',
    `rollout-2026-11-01T12-00-00-${ROLLOUT}.jsonl`,
  );
  writeJsonl(rollout, [
    { timestamp: '2026-11-01T12:00:00Z', type: 'session_meta', payload: { id: ROLLOUT, cwd: repo, model: 'gpt-5' } },
    codexTurn('2026-11-01T12:10:00Z'),
  ]);
  return { repo, rollout };
}

describe('report --by session', () => {
  it('shows one row per session from the logs, adding up to every other report', async () => {
    writeTree();
    expect((await run(h.env, ['sync', '--quiet', '--no-upload'])).code).toBe(0);
    const s = await sessions();
    expect(s.rows.map((r) => [r.key, r.source, r.project ?? null, r.start, r.end, r.total_tokens])).toEqual([
      [A, 'claude', 'octo/widgets', '2026-11-01T09:00:00.000Z', '2026-11-01T11:00:00.000Z', 3930],
      [ROLLOUT, 'codex', 'octo/widgets', '2026-11-01T12:00:00.000Z', '2026-11-01T12:30:00.000Z', 1100],
      [B, 'claude', null, '2026-11-02T08:00:00.000Z', '2026-11-02T08:30:00.000Z', 1310],
    ]);
    const byDay = JSON.parse((await run(h.env, ['report', '--json', '--tz', 'UTC'])).stdout) as typeof s;
    expect(s.totals).toEqual(byDay.totals);
    // a range keeps the sessions' usage within it
    const second = await sessions(['--since', '2026-11-02']);
    expect(second.rows.map((r) => [r.key, r.total_tokens])).toEqual([[B, 1310]]);
  });

  it('prints the same table through a pipe and on a terminal', async () => {
    writeTree();
    await run(h.env, ['sync', '--quiet', '--no-upload']);
    const piped = await run(h.env, ['report', '--by', 'session', '--tz', 'UTC']);
    expect(piped.stdout).toBe(
      [
        'session        agent   start                 end    project       input (uncached)  cached  output  reasoning  total    cost',
        '3f2a9c1e-7b4…  claude  2026-11-01 09:00 UTC  11:00  octo/widgets               900      3K      30          0  3.93K  <$0.01',
        '019a2b3c-4d5…  codex   2026-11-01 12:00 UTC  12:30  octo/widgets               200     800      40         60   1.1K  <$0.01',
        '8c1d2e3f-4a5…  claude  2026-11-02 08:00 UTC  08:30                             300      1K      10          0  1.31K  <$0.01',
        'total                                                                         1.4K    4.8K      80         60  6.34K  <$0.01',
        '',
        COLUMNS_NOTE,
        "Start and end: the first and last half-hour of each session's usage, in UTC; session ids shortened (--json has them whole).",
        "Cost from the server's price data, per model and UTC day.",
        '',
      ].join('\n'),
    );
    const tty = await run(h.env, ['report', '--by', 'session', '--tz', 'UTC'], { stdout: ttySink() });
    expect(tty.stdout).toContain('\u001b[1m');
    expect(stripColour(tty.stdout)).toBe(piped.stdout);
  });

  it('stays exact when a file is replaced, and names usage read before sessions were kept', async () => {
    const { rollout, repo } = writeTree();
    await run(h.env, ['sync', '--quiet', '--no-upload']);
    // the Codex rollout rewritten shorter: its earlier contribution is taken back, from its session too
    writeJsonl(rollout, [
      { timestamp: '2026-11-01T12:00:00Z', type: 'session_meta', payload: { id: ROLLOUT, cwd: repo } },
      codexTurn('2026-11-01T13:10:00Z', 900),
    ]);
    await run(h.env, ['sync', '--quiet', '--no-upload']);
    const s = await sessions();
    const byDay = JSON.parse((await run(h.env, ['report', '--json', '--tz', 'UTC'])).stdout) as typeof s;
    expect(s.totals).toEqual(byDay.totals);
    expect(s.rows.map((r) => [r.key, r.start, r.end, r.total_tokens])).toEqual([
      [A, '2026-11-01T09:00:00.000Z', '2026-11-01T11:00:00.000Z', 3930],
      [ROLLOUT, '2026-11-01T13:00:00.000Z', '2026-11-01T13:30:00.000Z', 900],
      [B, '2026-11-02T08:00:00.000Z', '2026-11-02T08:30:00.000Z', 1310],
    ]);
    // a state written before sessions were kept: the buckets' usage beyond their sessions is "(no session)"
    const stateDir = ownPaths(h.env).stateDir;
    const state = JSON.parse(fs.readFileSync(path.join(stateDir, 'state.json'), 'utf8')) as Record<string, unknown>;
    delete state['sessions'];
    fs.writeFileSync(path.join(stateDir, 'state.json'), JSON.stringify(state));
    const old = await sessions();
    expect(old.rows.map((r) => [r.key, r.source, r.total_tokens])).toEqual([
      ['(no session)', 'claude', 5240],
      ['(no session)', 'codex', 900],
    ]);
    expect(old.totals).toEqual(byDay.totals);
    const text = await run(h.env, ['report', '--by', 'session', '--tz', 'UTC']);
    expect(text.stdout).toContain('(no session): usage read before this version kept sessions');
  });
});
