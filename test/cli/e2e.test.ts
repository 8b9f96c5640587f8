/**
 * End to end: the CLI against the real server (createTestApp, listening on 127.0.0.1:0) behind a
 * small proxy that can "die" right after the server stored its Nth upload (the answer is lost),
 * a deterministic kill point. Checks link with a real link code, sync, that the server's stored
 * totals equal `tokentally report`, that nothing is lost or double counted after the outage,
 * and that turning project attribution on and off keeps the totals.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addCounts, zeroCounts } from '../../src/domain/token-counts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, signUp } from '../helpers/actors.js';
import { storedBuckets } from '../helpers/stored-buckets.js';
import { appendJsonl, makeHome, removeHome, run, writeJsonl, type TestHome } from './helpers.js';

interface Proxy {
  url: string;
  ingests: number;
  /** Die right after forwarding this ingest (1-based); 0 = never. */
  killAfter: number;
  down: boolean;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const state = { ingests: 0, killAfter: 0, down: false };
  const server = http.createServer((req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const init: RequestInit = { method: req.method ?? 'GET', headers };
        if (body !== undefined) init.body = body;
        const upstream = await fetch(`${target}${req.url ?? ''}`, init);
        const text = await upstream.text();
        if (req.url === '/functions/svc-ingest') {
          state.ingests += 1;
          if (state.killAfter > 0 && state.ingests === state.killAfter) {
            state.down = true; // stored upstream, but the client never hears back
            req.socket.destroy();
            return;
          }
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((v, k) => {
          if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
        });
        res.writeHead(upstream.status, out);
        res.end(text);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const p: Proxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get ingests() {
      return state.ingests;
    },
    get killAfter() {
      return state.killAfter;
    },
    set killAfter(n: number) {
      state.killAfter = n;
    },
    get down() {
      return state.down;
    },
    set down(d: boolean) {
      state.down = d;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return p;
}

interface Sums {
  input: bigint;
  cached: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
  billable: bigint;
  rows: number;
}

async function serverSums(t: TestApp): Promise<Sums> {
  const buckets = await storedBuckets(t.db.kysely);
  const s: Sums = { ...zeroCounts(), rows: buckets.length };
  for (const b of buckets) addCounts(s, b);
  return s;
}

interface ReportTotals {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
  billable_total_tokens: number;
}

async function reportTotals(h: TestHome): Promise<ReportTotals> {
  const r = await run(h.env, ['report', '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { totals: ReportTotals }).totals;
}

function expectEqual(server: Sums, local: ReportTotals): void {
  expect({
    input: Number(server.input),
    cached: Number(server.cached),
    output: Number(server.output),
    reasoning: Number(server.reasoning),
    total: Number(server.total),
    billable: Number(server.billable),
  }).toEqual({
    input: local.input_tokens,
    cached: local.cached_input_tokens,
    output: local.output_tokens,
    reasoning: local.reasoning_output_tokens,
    total: local.total_tokens,
    billable: local.billable_total_tokens,
  });
}

const claudeLine = (n: number, ts: string, cwd: string) => ({
  type: 'assistant',
  timestamp: ts,
  cwd,
  sessionId: 's',
  requestId: `req_${n}`,
  message: {
    id: `msg_${n}`,
    model: n % 2 === 0 ? 'claude-sonnet-4-5' : 'claude-opus-4-1',
    usage: {
      input_tokens: 10 + n,
      cache_creation_input_tokens: n % 7,
      cache_read_input_tokens: 1000 + n,
      output_tokens: 5 + (n % 50),
    },
  },
});
const codexTurn = (ts: string, i: number, o: number) => ({
  timestamp: ts,
  type: 'event_msg',
  payload: {
    type: 'token_count',
    info: {
      last_token_usage: {
        input_tokens: i,
        cached_input_tokens: Math.floor(i / 2),
        output_tokens: o,
        reasoning_output_tokens: Math.floor(o / 3),
        total_tokens: i + o,
      },
    },
  },
});

let t: TestApp;
let proxy: Proxy;
let h: TestHome;

beforeEach(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as AddressInfo;
  proxy = await startProxy(`http://127.0.0.1:${addr.port}`);
  h = makeHome();
});
afterEach(async () => {
  await proxy.close();
  await t.close();
  removeHome(h);
});

describe('CLI against the real server', () => {
  it.each([1, 2, 3])(
    'links with a real code, survives a server death right after its upload #%i, and ends equal to report',
    async (killAt) => {
      const user = await signUp(t);
      const init = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-link-code-init',
        headers: bearer(user.accessToken),
      });
      expect(init.statusCode, init.body).toBe(200);
      const code = init.json<{ link_code: string }>().link_code;

      expect((await run(h.env, ['link', '--server', proxy.url])).code).toBe(2); // no TTY, no code
      const linked = await run(h.env, ['link', '--server', proxy.url, '--code', code, '--device-name', 'e2e-box']);
      expect(linked.code, linked.stderr).toBe(0);

      // a git project for the opt-in part
      const repo = path.join(h.root, 'src', 'widgets');
      fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
      fs.writeFileSync(
        path.join(repo, '.git', 'config'),
        '[remote "origin"]\n\turl = git@github.com:octo/widgets.git\n',
      );

      // ~1,300 claude half-hours (three requests) plus a codex session
      const start = Date.UTC(2026, 8, 1);
      const claudeFile = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', 's.jsonl');
      writeJsonl(
        claudeFile,
        Array.from({ length: 1300 }, (_, n) =>
          claudeLine(n, new Date(start + n * 1_800_000).toISOString(), n % 3 === 0 ? repo : '/nonexistent/x'),
        ),
      );
      writeJsonl(
        path.join(
          h.env['CODEX_HOME'] as string,
          'sessions',
          '2026',
          '10',
          '31',
          'rollout-2026-10-31T10-00-00-0199a000-0000-7000-8000-00000000000a.jsonl',
        ),
        [
          { timestamp: '2026-10-31T10:00:00Z', type: 'turn_context', payload: { model: 'gpt-5-codex' } },
          codexTurn('2026-10-31T10:01:00Z', 5000, 300),
          codexTurn('2026-10-31T10:41:00Z', 9000, 700),
        ],
      );

      proxy.killAfter = killAt;
      const dying = await run(h.env, ['sync']);
      expect(dying.code).toBe(1);
      expect(dying.stderr).toContain('kept in the queue');
      expect(proxy.ingests).toBe(killAt);

      proxy.down = false; // the server is back
      proxy.killAfter = 0;
      const back = await run(h.env, ['sync']);
      expect(back.code, back.stderr).toBe(0);
      const after = await serverSums(t);
      expectEqual(after, await reportTotals(h));
      expect(after.rows).toBe(1302);
      expect(Number(after.total)).toBeGreaterThan(1_000_000);

      // nothing new: a sync ping; totals unchanged
      expect((await run(h.env, ['sync'])).stdout).toContain('sync ping');
      expectEqual(await serverSums(t), await reportTotals(h));

      // projects on, new usage in a bucket that has both variants, then off again
      appendJsonl(claudeFile, [claudeLine(5000, new Date(start).toISOString(), repo)]);
      expect((await run(h.env, ['sync', '--projects'])).code).toBe(0);
      const withProjects = await serverSums(t);
      expectEqual(withProjects, await reportTotals(h));
      const projectRows = (await storedBuckets(t.db.kysely)).filter((b) => b.projectKey === 'octo/widgets');
      expect(projectRows.length).toBeGreaterThan(0);
      expect(projectRows[0]?.projectRef).toBe('https://github.com/octo/widgets');

      appendJsonl(claudeFile, [claudeLine(5001, new Date(start + 60_000).toISOString(), repo)]);
      expect((await run(h.env, ['sync', '--no-projects'])).code).toBe(0);
      expectEqual(await serverSums(t), await reportTotals(h));

      // the server's own summary and daily rows agree with `tokentally report`, in a zone with a
      // :45 offset so local days differ from UTC days
      for (const tz of ['UTC', 'Asia/Kathmandu']) {
        const q = `from=2026-09-01&to=2026-11-01&tz=${encodeURIComponent(tz)}`;
        const summary = await t.app.inject({
          method: 'GET',
          url: `/functions/svc-usage-summary?${q}`,
          headers: bearer(user.accessToken),
        });
        expect(summary.statusCode, summary.body).toBe(200);
        const totals = summary.json<{ totals: Record<string, string> }>().totals;
        const local = JSON.parse(
          (await run(h.env, ['report', '--json', '--since', '2026-09-01', '--until', '2026-11-01', '--tz', tz])).stdout,
        ) as {
          rows: { key: string; total_tokens: number; billable_total_tokens: number }[];
          totals: ReportTotals;
        };
        expect({
          input: totals['input_tokens'],
          cached: totals['cached_input_tokens'],
          output: totals['output_tokens'],
          reasoning: totals['reasoning_output_tokens'],
          total: totals['total_tokens'],
        }).toEqual({
          input: String(local.totals.input_tokens),
          cached: String(local.totals.cached_input_tokens),
          output: String(local.totals.output_tokens),
          reasoning: String(local.totals.reasoning_output_tokens),
          total: String(local.totals.total_tokens),
        });
        if (totals['billable_total_tokens'] !== undefined)
          expect(totals['billable_total_tokens']).toBe(String(local.totals.billable_total_tokens));
        const daily = await t.app.inject({
          method: 'GET',
          url: `/functions/svc-usage-daily?${q}`,
          headers: bearer(user.accessToken),
        });
        expect(daily.statusCode, daily.body).toBe(200);
        const days = daily
          .json<{ data: { day: string; total_tokens: string }[] }>()
          .data.filter((d) => d.total_tokens !== '0');
        expect(days.map((d) => [d.day, d.total_tokens])).toEqual(
          local.rows.map((r) => [r.key, String(r.total_tokens)]),
        );
      }

      // exportUsage and `tokentally report --json --tz UTC` agree on the same days: totals and per day
      const range = { since: '2026-09-10', until: '2026-10-31' };
      const exported = await t.app.inject({
        method: 'GET',
        url: `/functions/svc-export?from=${range.since}&to=${range.until}`,
        headers: bearer(user.accessToken),
      });
      expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
      const body = exported.json<{
        buckets: { hour_start: string; device: string; total_tokens: string }[];
        daily: { day: string; total_tokens: string }[];
        totals: Record<string, string>;
      }>();
      expect(new Set(body.buckets.map((b) => b.device))).toEqual(new Set(['e2e-box']));
      const local = JSON.parse(
        (await run(h.env, ['report', '--json', '--since', range.since, '--until', range.until, '--tz', 'UTC'])).stdout,
      ) as {
        rows: { key: string; total_tokens: number }[];
        totals: ReportTotals;
      };
      // report's cost is the server's, to the micro-dollar
      expect(body.totals).toEqual({
        ...Object.fromEntries(
          Object.entries(local.totals)
            // the adding-up columns are the CLI's own view (report-rows.ts); the server has the raw sums
            .filter(
              ([k]) =>
                !['key', 'cost_usd', 'uncached_input_tokens', 'non_reasoning_output_tokens', 'other_tokens'].includes(
                  k,
                ),
            )
            .map(([k, v]) => [k, String(v)]),
        ),
        total_cost_usd: (local.totals as unknown as { cost_usd: string }).cost_usd,
      });
      const perDay = new Map<string, bigint>();
      for (const b of body.buckets)
        perDay.set(b.hour_start.slice(0, 10), (perDay.get(b.hour_start.slice(0, 10)) ?? 0n) + BigInt(b.total_tokens));
      expect([...perDay].sort().map(([d, n]) => [d, String(n)])).toEqual(
        local.rows.map((r) => [r.key, String(r.total_tokens)]),
      );
      const dailyPerDay = new Map<string, bigint>();
      for (const d of body.daily) dailyPerDay.set(d.day, (dailyPerDay.get(d.day) ?? 0n) + BigInt(d.total_tokens));
      expect([...dailyPerDay].sort()).toEqual([...perDay].sort());
    },
  );
});
