/**
 * Property: however the logs grow between syncs (cut anywhere, even mid-line), syncing after
 * every piece gives exactly the buckets of one sync over the finished files. And total_tokens
 * always equals the channels' sum in each source's convention.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeHome, readBuckets, removeHome, runScan } from './helpers.js';

interface Ev {
  kind: 'claude' | 'codex';
  minute: number;
  msg: number;
  out: number;
  inp: number;
  cache: number;
  side: boolean;
}

const evArb = fc.record({
  kind: fc.constantFrom<'claude' | 'codex'>('claude', 'codex'),
  minute: fc.integer({ min: 0, max: 300 }),
  msg: fc.integer({ min: 0, max: 12 }),
  out: fc.integer({ min: 0, max: 5000 }),
  inp: fc.integer({ min: 0, max: 100_000 }),
  cache: fc.integer({ min: 0, max: 100_000 }),
  side: fc.boolean(),
});

function render(evs: readonly Ev[]): { claude: string; codex: string } {
  const base = Date.UTC(2026, 10, 1, 8, 0, 0);
  let claude = '';
  let codex = `${JSON.stringify({ timestamp: new Date(base).toISOString(), type: 'turn_context', payload: { model: 'gpt-5' } })}\n`;
  const total = {
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
    total_tokens: 0,
  };
  for (const e of evs) {
    const ts = new Date(base + e.minute * 60_000).toISOString();
    if (e.kind === 'claude') {
      claude += `${JSON.stringify({
        type: 'assistant',
        timestamp: ts,
        isSidechain: e.side,
        requestId: `req_${e.msg}${e.side ? 'b' : ''}`,
        message: {
          id: `msg_${e.msg}`,
          model: 'claude-x',
          usage: {
            input_tokens: e.inp % 1000,
            cache_read_input_tokens: e.cache,
            cache_creation_input_tokens: e.inp % 7,
            output_tokens: e.out,
          },
        },
      })}\n`;
    } else {
      const last = {
        input_tokens: e.inp,
        cached_input_tokens: Math.min(e.cache, e.inp),
        output_tokens: e.out,
        reasoning_output_tokens: Math.floor(e.out / 2),
        total_tokens: e.inp + e.out,
      };
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += last[k];
      codex += `${JSON.stringify({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: last } } })}\n`;
    }
  }
  return { claude, codex };
}

describe('incremental sync', () => {
  it('equals one full sync, wherever the files were cut between syncs', () => {
    fc.assert(
      fc.property(
        fc.array(evArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        (evs, cuts) => {
          const { claude, codex } = render(evs);
          const once = makeHome();
          const steps = makeHome();
          try {
            const files = (h: typeof once) => ({
              claude: path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', 's.jsonl'),
              codex: path.join(
                h.env['CODEX_HOME'] as string,
                'sessions',
                '2026',
                '11',
                '01',
                'rollout-2026-11-01T08-00-00-0199a000-0000-7000-8000-000000000001.jsonl',
              ),
            });
            for (const [k, text] of Object.entries({ claude, codex })) {
              const f = files(once)[k as 'claude' | 'codex'];
              fs.mkdirSync(path.dirname(f), { recursive: true });
              fs.writeFileSync(f, text);
            }
            runScan(once.env);
            const expected = readBuckets(once.env);

            const fs2 = files(steps);
            fs.mkdirSync(path.dirname(fs2.claude), { recursive: true });
            fs.mkdirSync(path.dirname(fs2.codex), { recursive: true });
            const points = [...cuts].sort((a, b) => a - b);
            let doneClaude = 0;
            let doneCodex = 0;
            for (const p of [...points, 1]) {
              const nc = Math.floor(claude.length * p);
              const nx = Math.floor(codex.length * p);
              fs.appendFileSync(fs2.claude, claude.slice(doneClaude, nc));
              fs.appendFileSync(fs2.codex, codex.slice(doneCodex, nx));
              doneClaude = Math.max(doneClaude, nc);
              doneCodex = Math.max(doneCodex, nx);
              runScan(steps.env);
            }
            expect(readBuckets(steps.env)).toEqual(expected);
            for (const [name, c] of Object.entries(expected)) {
              if (name.includes('|codex|')) expect(c.total).toBe(c.input + c.output);
              else expect(c.total).toBe(c.input + c.cached + c.output + c.reasoning);
            }
          } finally {
            removeHome(once);
            removeHome(steps);
          }
        },
      ),
      { numRuns: 40, seed: 20261122 },
    );
  });
});
