import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { billable, COLUMNS_NOTE } from '../../src/cli/commands/report.js';
import { blockStarts } from '../../src/cli/report-rows.js';
import { stripColour } from '../../src/cli/style.js';
import { run, tempHomeEach, ttySink, writeJsonl } from './helpers.js';

const h = tempHomeEach();

const claude = (n: number, ts: string, model = 'claude-opus-4-1') => ({
  type: 'assistant',
  timestamp: ts,
  requestId: `r${n}`,
  message: { id: `m${n}`, model, usage: { input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 10 } },
});
const codexTurn = (ts: string) => ({
  timestamp: ts,
  type: 'event_msg',
  payload: {
    type: 'token_count',
    info: {
      last_token_usage: {
        input_tokens: 1000,
        cached_input_tokens: 800,
        output_tokens: 100,
        reasoning_output_tokens: 60,
        total_tokens: 1100,
      },
    },
  },
});

async function report(args: string[]): Promise<{
  rows: { key: string; total_tokens: number; billable_total_tokens: number }[];
  totals: { total_tokens: number; billable_total_tokens: number };
}> {
  const r = await run(h.env, ['report', '--json', ...args]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as never;
}

describe('report', () => {
  beforeEach(async () => {
    writeJsonl(path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', 's.jsonl'), [
      claude(1, '2026-11-01T18:00:00Z'), // Kathmandu 23:45 Nov 1
      claude(2, '2026-11-01T18:30:00Z', 'claude-sonnet-4-5'), // Kathmandu 00:15 Nov 2
      claude(3, '2026-10-31T23:59:00Z', 'claude-opus-4-1-20250805'), // folded into claude-opus-4-1 by --by model
    ]);
    writeJsonl(path.join(h.env['CODEX_HOME'] as string, 'sessions', '2026', '11', '01', 'rollout-x.jsonl'), [
      { timestamp: '2026-11-01T00:00:00Z', type: 'turn_context', payload: { model: 'gpt-5' } },
      codexTurn('2026-11-01T09:00:00Z'),
    ]);
    expect((await run(h.env, ['sync', '--quiet', '--no-upload'])).code).toBe(0);
  });

  it('groups by local day in the given zone, using the local day of each bucket start', async () => {
    const utc = await report(['--tz', 'UTC']);
    expect(utc.rows.map((r) => [r.key, r.total_tokens])).toEqual([
      ['2026-10-31', 1110],
      ['2026-11-01', 3320],
    ]);
    const ktm = await report(['--tz', 'Asia/Kathmandu']);
    expect(ktm.rows.map((r) => [r.key, r.total_tokens])).toEqual([
      ['2026-11-01', 3320],
      ['2026-11-02', 1110],
    ]);
    const la = await report(['--tz', 'America/Los_Angeles', '--since', '2026-11-01', '--until', '2026-11-01']);
    expect(la.rows.map((r) => [r.key, r.total_tokens])).toEqual([['2026-11-01', 3320]]);
  });

  it('applies the server billable rule per source', async () => {
    const bySource = await report(['--by', 'source']);
    expect(bySource.rows.map((r) => [r.key, r.total_tokens, r.billable_total_tokens])).toEqual([
      ['claude', 3330, 3330],
      ['codex', 1100, 1100],
    ]);
    expect(billable('gemini', { input: 10, cached: 5, output: 1, reasoning: 1, total: 12 })).toBe(12);
    const byModel = await report(['--by', 'model', '--tz', 'UTC']);
    expect(byModel.rows.map((r) => r.key)).toEqual(['claude-opus-4-1', 'claude-sonnet-4-5', 'gpt-5']);
  });

  it('prints columns that add up, in the dashboard units, the same through a pipe and on a terminal', async () => {
    const json = await report(['--tz', 'UTC']);
    for (const r of [...json.rows, json.totals] as unknown as Record<string, number>[])
      expect(
        (r['uncached_input_tokens'] ?? 0) +
          (r['cached_input_tokens'] ?? 0) +
          (r['non_reasoning_output_tokens'] ?? 0) +
          (r['reasoning_output_tokens'] ?? 0) +
          (r['other_tokens'] ?? 0),
      ).toBe(r['total_tokens']);
    const piped = await run(h.env, ['report', '--tz', 'UTC']);
    expect(piped.stdout).toBe(
      [
        'day         input (uncached)  cached  output  reasoning  total    cost',
        '2026-10-31               100      1K      10          0  1.11K  <$0.01',
        '2026-11-01               400    2.8K      60         60  3.32K  <$0.01',
        'total                    500    3.8K      70         60  4.43K  <$0.01',
        '',
        `${COLUMNS_NOTE}`,
        "Days in UTC; cost from the server's price data, per model and UTC day.",
        '',
      ].join('\n'),
    );
    expect(piped.stdout).not.toContain('billable'); // equal to total on every row here
    expect(piped.stdout).not.toContain('⊂');
    // A terminal (simulated: isTTY on the stream, as node sets it on a pty) gets colour, else the same text.
    const tty = await run(h.env, ['report', '--tz', 'UTC'], { stdout: ttySink() });
    expect(tty.stdout).toContain('\u001b[1m');
    expect(stripColour(tty.stdout)).toBe(piped.stdout);
    expect((await run({ ...h.env, NO_COLOR: '1' }, ['report', '--tz', 'UTC'], { stdout: ttySink() })).stdout).toBe(
      piped.stdout,
    );
    const forced = await run({ ...h.env, FORCE_COLOR: '1' }, ['report', '--tz', 'UTC']);
    expect(stripColour(forced.stdout)).toBe(piped.stdout);
    expect(forced.stdout).not.toBe(piped.stdout);
    expect((await run({ ...h.env, FORCE_COLOR: '0' }, ['report', '--tz', 'UTC'], { stdout: ttySink() })).stdout).toBe(
      piped.stdout,
    );
  });

  it('groups Claude usage into 5-hour blocks and marks the open one', async () => {
    const blocks = (await report(['--by', 'block', '--tz', 'UTC'])) as unknown as {
      rows: { key: string; total_tokens: number; start: string; end: string; active: boolean }[];
    };
    expect(blocks.rows.map((r) => [r.key, r.total_tokens, r.start, r.end, r.active])).toEqual([
      ['2026-10-31 23:00 UTC', 1110, '2026-10-31T23:00:00.000Z', '2026-11-01T04:00:00.000Z', false],
      ['2026-11-01 18:00 UTC', 2220, '2026-11-01T18:00:00.000Z', '2026-11-01T23:00:00.000Z', false],
    ]);
    expect(
      blockStarts([
        Date.parse('2026-11-01T10:30:00Z'),
        Date.parse('2026-11-01T14:30:00Z'),
        Date.parse('2026-11-01T15:00:00Z'),
      ]),
    ).toEqual([Date.parse('2026-11-01T10:00:00Z'), Date.parse('2026-11-01T15:00:00Z')]);
    const open = await run(h.env, ['report', '--by', 'block', '--tz', 'UTC'], {
      now: () => Date.parse('2026-11-01T20:00:00Z'),
    });
    expect(open.stdout).toContain('2026-11-01 18:00 UTC (active)');
    expect(open.stdout.split('\n')[0]).toMatch(/^block \(5 h, Claude\)\s+input \(uncached\)/);
  });

  it('rejects bad options', async () => {
    expect((await run(h.env, ['report', '--tz', 'Mars/Olympus'])).code).toBe(2);
    expect((await run(h.env, ['report', '--since', '2026-02-30'])).code).toBe(2);
    expect((await run(h.env, ['report', '--by', 'week'])).code).toBe(2);
    expect((await run(h.env, ['report', '--since', '2026-11-02', '--until', '2026-11-01'])).code).toBe(2);
  });

  it('status shows files seen and the queue', async () => {
    const s = await run(h.env, ['status', '--json']);
    const st = JSON.parse(s.stdout) as {
      linked: boolean;
      queued_buckets: number;
      agents: Record<string, { files: number }>;
    };
    expect(st.linked).toBe(false);
    expect(st.queued_buckets).toBe(4);
    expect(st.agents['claude']?.files).toBe(1);
    expect(st.agents['codex']?.files).toBe(1);
  });
});
