import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/cli/config-store.js';
import { ownPaths } from '../../src/cli/paths.js';
import { UploadQueue } from '../../src/cli/queue.js';
import { VERSION } from '../../src/cli/version.js';
import { startFakeServer, serverTotal, TOKEN, type FakeServer } from './fake-server.js';
import { appendJsonl, makeHome, removeHome, run, writeJsonl, type TestHome } from './helpers.js';

let h: TestHome;
let srv: FakeServer;
beforeEach(async () => {
  h = makeHome();
  srv = await startFakeServer();
});
afterEach(async () => {
  await srv.close();
  removeHome(h);
});

const claudeLine = (n: number, ts: string, cwd = '/nonexistent/p', o = 10) => ({
  type: 'assistant',
  timestamp: ts,
  cwd,
  sessionId: 's',
  requestId: `req_${n}`,
  message: {
    id: `msg_${n}`,
    model: 'claude-opus-4-1',
    usage: { input_tokens: 100, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0, output_tokens: o },
  },
});
const claudeFile = () => path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', 's.jsonl');

async function link(): Promise<void> {
  const r = await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN', '--device-name', 'studio-mac']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('as device "studio-mac"');
}

async function reportTotal(): Promise<number> {
  const r = await run(h.env, ['report', '--json']);
  return (JSON.parse(r.stdout) as { totals: { total_tokens: number } }).totals.total_tokens;
}

describe('sync summary', () => {
  it('ends with the new tokens and their cost per agent, biggest first, and the buckets sent', async () => {
    await link();
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z'), claudeLine(2, '2026-11-01T11:00:00Z')]);
    writeJsonl(
      path.join(
        h.env['CODEX_HOME'] as string,
        'sessions',
        '2026',
        '11',
        '01',
        'rollout-2026-11-01T10-00-00-0199a000-0000-7000-8000-00000000000b.jsonl',
      ),
      [
        { timestamp: '2026-11-01T10:00:00Z', type: 'turn_context', payload: { model: 'gpt-5-codex' } },
        {
          timestamp: '2026-11-01T10:01:00Z',
          type: 'event_msg',
          payload: {
            type: 'token_count',
            info: {
              last_token_usage: {
                input_tokens: 1_000_000,
                cached_input_tokens: 200_000,
                output_tokens: 240_000,
                reasoning_output_tokens: 0,
                total_tokens: 1_240_000,
              },
            },
          },
        },
      ],
    );
    const r = await run(h.env, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    // codex: 0.8M fresh input × $1.25/M + 0.2M cached × $0.125/M + 0.24M output × $10/M = $3.425
    expect(r.stdout).toMatch(
      /^Sent 3 half-hour buckets: 1\.24M tokens, \$3\.43 \(codex 1\.24M \$3\.43 · claude 2\.22K <\$0\.01\)\.$/m,
    );
    appendJsonl(claudeFile(), [claudeLine(3, '2026-11-01T11:10:00Z')]);
    const more = await run(h.env, ['sync']);
    expect(more.stdout).toMatch(/^Sent 1 half-hour bucket; new usage: claude 1\.11K tokens <\$0\.01\.$/m);
    const again = await run(h.env, ['sync']);
    expect(again.stdout).not.toContain('tokens');
  });

  it('the first sync after linking says what it sent, also what was read before linking', async () => {
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z'), claudeLine(2, '2026-11-01T11:00:00Z')]);
    expect((await run(h.env, ['sync', '--no-upload'])).code).toBe(0);
    await link();
    const r = await run(h.env, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'Sent 2 half-hour buckets: 2.22K tokens, <$0.01.\nThe server stored 2 new or changed, 0 unchanged (1 request).\n',
    );
  });
});

describe('link', () => {
  it('refuses to prompt without a TTY and says how to pass the code', async () => {
    const r = await run(h.env, ['link', '--server', srv.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--code');
    expect(srv.requests).toHaveLength(0);
  });

  it('stores server and token in the XDG config dir with mode 0600', async () => {
    await link();
    const file = ownPaths(h.env).configFile;
    expect(file.startsWith(h.env['XDG_CONFIG_HOME'] as string)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const cfg = loadConfig(file);
    expect(cfg.token).toBe(TOKEN);
    expect(cfg.server).toBe(srv.url);
    expect(cfg.pendingLink).toBeUndefined();
    const body = srv.requests[0]?.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['device_name', 'link_code', 'platform', 'request_id']);
  });

  it('keeps the request id until success, so a retry after a lost answer is safe', async () => {
    srv.script.push({ status: 500 });
    const first = await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN']);
    expect(first.code).toBe(1);
    await link();
    const ids = srv.requests
      .filter((r) => r.path === '/functions/svc-link-code-exchange')
      .map((r) => (r.body as { request_id: string }).request_id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });

  it("names the account the device joined, as the server's exchange answer says", async () => {
    srv.accountEmail = 'someone-else@example.com';
    const r = await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain('to the account someone-else@example.com');
    expect(r.stdout + r.stderr).toContain('If someone-else@example.com is not your account, do not sync');
  });

  it('still links when the server does not say the account (an older server), and says so', async () => {
    srv.script.push({
      status: 200,
      body: {
        token: TOKEN,
        device_id: '11111111-1111-4111-8111-111111111111',
        user_id: '22222222-2222-4222-8222-222222222222',
      },
    });
    const r = await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('the server did not say which account');
    expect(loadConfig(ownPaths(h.env).configFile).token).toBe(TOKEN);
  });

  it('explains an unknown code (400) and a code used elsewhere (409)', async () => {
    const bad = await run(h.env, ['link', '--server', srv.url, '--code', 'WRONG']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown or expired link code');
    srv.exchanges.set('ABCD-EFGH-JKMN', 'someone-else');
    const used = await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN']);
    expect(used.code).toBe(1);
    expect(used.stderr).toContain('already used');
  });
});

describe('doctor and the server', () => {
  it('says so while the server reprices its stored costs, and nothing once it is done', async () => {
    await link();
    srv.health = { status: 'ok', version: VERSION, pricing: { state: 'repricing', rows_done: 1200 } };
    const repricing = await run(h.env, ['doctor']);
    expect(repricing.stdout).toContain(`ok    CLI and server versions match (${VERSION})`);
    expect(repricing.stdout).toContain(
      '--    the server is repricing its stored costs with new price data (1200 daily rows done); costs use the previous prices until it ends',
    );
    srv.health = { status: 'ok', version: VERSION, pricing: { state: 'current' } };
    expect((await run(h.env, ['doctor'])).stdout).not.toContain('repricing');
  });
});

describe('sync and upload', () => {
  it('uploads absolute bucket totals that equal the local report, then only pings when nothing changed', async () => {
    await link();
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z'), claudeLine(2, '2026-11-01T11:00:00Z')]);
    const r = await run(h.env, ['sync']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Sent 2 half-hour buckets: 2.22K tokens');
    expect(serverTotal(srv)).toBe(2220);
    expect(await reportTotal()).toBe(2220);
    const again = await run(h.env, ['sync']);
    expect(again.code).toBe(0);
    expect(srv.requests.at(-1)?.path).toBe('/functions/svc-sync-ping');
    // a changed bucket is re-sent whole (the server replaces it)
    appendJsonl(claudeFile(), [claudeLine(3, '2026-11-01T10:10:00Z')]);
    await run(h.env, ['sync']);
    const last = srv.requests.at(-1);
    expect(last?.path).toBe('/functions/svc-ingest');
    expect((last?.body as { hourly: { total_tokens: number }[] }).hourly).toEqual([
      expect.objectContaining({ hour_start: '2026-11-01T10:00:00.000Z', total_tokens: 2220 }),
    ]);
    expect(serverTotal(srv)).toBe(3330);
  });

  it('honours Retry-After on 429 and 503', async () => {
    await link();
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z')]);
    srv.script.push({ status: 429, retryAfter: '3' }, { status: 503, retryAfter: '1' });
    const waits: number[] = [];
    const r = await run(h.env, ['sync', '--quiet'], {
      api: {
        timeoutMs: 5000,
        attempts: 4,
        baseDelayMs: 1,
        maxDelayMs: 5,
        maxRetryAfterMs: 10_000,
        sleep: (ms) => (waits.push(ms), Promise.resolve()),
      },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(waits).toEqual([3000, 1000]);
    expect(serverTotal(srv)).toBe(1110);
  });

  it('keeps everything in the durable queue while offline and sends it once the server is back', async () => {
    await link();
    const url = srv.url;
    await srv.close();
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z')]);
    const off = await run(h.env, ['sync']);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('kept in the queue');
    appendJsonl(claudeFile(), [claudeLine(2, '2026-11-01T10:05:00Z')]);
    await run(h.env, ['sync']);
    expect(new UploadQueue(ownPaths(h.env).stateDir).size()).toBe(1); // the two versions collapse
    // back online on a new port: point the config at it
    srv = await startFakeServer();
    const cfgFile = ownPaths(h.env).configFile;
    const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(cfgFile, JSON.stringify({ ...cfg, server: srv.url }));
    expect(url).not.toBe('');
    const on = await run(h.env, ['sync']);
    expect(on.code).toBe(0);
    expect(serverTotal(srv)).toBe(2220);
    expect(new UploadQueue(ownPaths(h.env).stateDir).size()).toBe(0);
  });

  it('sends at most 500 buckets per request, never splitting a group, and resumes after a failed batch', async () => {
    await link();
    const rows = Array.from({ length: 1200 }, (_, i) =>
      claudeLine(i, new Date(Date.UTC(2026, 8, 1) + i * 1800_000).toISOString()),
    );
    writeJsonl(claudeFile(), rows);
    srv.script.push({ status: 200, body: { success: true, inserted: 500, skipped: 0 } }, { status: 500 }); // batch 2 fails
    const first = await run(h.env, ['sync']);
    expect(first.code).toBe(1);
    expect(new UploadQueue(ownPaths(h.env).stateDir).size()).toBe(700);
    const second = await run(h.env, ['sync']);
    expect(second.code).toBe(0);
    const ingests = srv.requests
      .filter((r) => r.path === '/functions/svc-ingest')
      .map((r) => (r.body as { hourly: unknown[] }).hourly.length);
    expect(ingests).toEqual([500, 500, 500, 200]);
    expect(srv.buckets.size).toBe(700); // the scripted first batch was not stored by the fake
    expect(new UploadQueue(ownPaths(h.env).stateDir).size()).toBe(0);
  });

  it('drops only the group the server refuses as invalid, so one bad bucket cannot block the queue', async () => {
    await link();
    const rows = Array.from({ length: 40 }, (_, i) =>
      claudeLine(i, new Date(Date.UTC(2026, 9, 1) + i * 1800_000).toISOString()),
    );
    rows[17] = {
      ...rows[17],
      message: { ...(rows[17] as { message: object }).message, model: 'bad-model' },
    } as (typeof rows)[number];
    writeJsonl(claudeFile(), rows);
    srv.rejectModel = 'bad-model';
    const r = await run(h.env, ['sync']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('refused bucket group 2026-10-01T08:30:00.000Z / claude / bad-model');
    expect(srv.buckets.size).toBe(39);
    expect(new UploadQueue(ownPaths(h.env).stateDir).size()).toBe(0);
  });

  it('does not run when another sync holds the lock', async () => {
    await link();
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z')]);
    const lock = path.join(ownPaths(h.env).stateDir, 'sync.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, at: Date.now() }));
    const r = await run(h.env, ['sync']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Another tokentally sync is running');
    expect(srv.requests.filter((x) => x.path === '/functions/svc-ingest')).toHaveLength(0);
    fs.writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 7, at: Date.now() })); // a dead process: stale
    expect((await run(h.env, ['sync'])).code).toBe(0);
    expect(serverTotal(srv)).toBe(1110);
  });

  it('without a link keeps the queue and says how to link', async () => {
    writeJsonl(claudeFile(), [claudeLine(1, '2026-11-01T10:00:00Z')]);
    const r = await run({ ...h.env, TOKENTALLY_SERVER: 'https://tt.example' }, ['sync']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tokentally link --server https://tt.example --code XXXX-XXXX-XXXX');
    expect(new UploadQueue(ownPaths(h.env).stateDir).size()).toBe(1);
  });
});

describe('projects', () => {
  function repo(name: string, remote: string): string {
    const dir = path.join(h.root, 'src', name);
    fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'pkg'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, '.git', 'config'),
      `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`,
    );
    return dir;
  }

  it('sends owner/repo only when opted in, never a local path, and totals do not change when toggled', async () => {
    await link();
    const a = repo('widgets', 'git@github.com:octo/widgets.git');
    const b = repo('gadgets', 'https://user:secret@gitlab.com/team/gadgets');
    writeJsonl(claudeFile(), [
      claudeLine(1, '2026-11-01T10:00:00Z', path.join(a, 'pkg')),
      claudeLine(2, '2026-11-01T10:01:00Z', b),
      claudeLine(3, '2026-11-01T10:02:00Z', '/nonexistent/x'),
    ]);
    await run(h.env, ['sync']);
    expect([...srv.buckets.values()].map((x) => x.project_key)).toEqual([undefined]);
    expect(serverTotal(srv)).toBe(3330);

    appendJsonl(claudeFile(), [claudeLine(4, '2026-11-01T10:03:00Z', a)]);
    await run(h.env, ['sync', '--projects']);
    const withProjects = [...srv.buckets.values()]
      .map((x) => [x.project_key, (x as { project_ref?: string }).project_ref, x.total_tokens])
      .sort((p, q) => String(p[0]).localeCompare(String(q[0])));
    expect(withProjects).toEqual([
      ['octo/widgets', 'https://github.com/octo/widgets', 2220],
      ['team/gadgets', 'https://gitlab.com/team/gadgets', 1110],
      [undefined, undefined, 1110],
    ]);
    expect(serverTotal(srv)).toBe(4440);

    appendJsonl(claudeFile(), [claudeLine(5, '2026-11-01T10:04:00Z', b)]);
    await run(h.env, ['sync', '--no-projects']);
    expect(serverTotal(srv)).toBe(5550);
    expect(await reportTotal()).toBe(5550);
    const everything = JSON.stringify(srv.requests);
    expect(everything).not.toContain(h.root);
    expect(everything).not.toContain('secret');
    const byProject = JSON.parse((await run(h.env, ['report', '--json', '--by', 'project'])).stdout) as {
      rows: { key: string; total_tokens: number }[];
    };
    expect(byProject.rows.map((r) => [r.key, r.total_tokens])).toEqual([
      ['octo/widgets', 2220],
      ['team/gadgets', 2220],
      ['(no project)', 1110],
    ]);
  });
});
