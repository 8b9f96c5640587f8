import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/cli/api.js';
import { acquireLock, isLocked } from '../../src/cli/lock.js';
import { counted, createOutput, formatBytes } from '../../src/cli/output.js';
import { agentRoots, ownPaths } from '../../src/cli/paths.js';
import { projectFromRemote, remoteUrlFromConfig } from '../../src/cli/project.js';
import { defaultThreads } from '../../src/cli/read-pool.js';
import { UploadQueue } from '../../src/cli/queue.js';
import { packBatches } from '../../src/cli/upload.js';
import { halfHourStart, parseInstant } from '../../src/cli/usage.js';
import { tempHomeEach } from './helpers.js';

const h = tempHomeEach();

describe('project names from git remotes', () => {
  it('keeps owner/repo and a credential-free https URL, nothing local', () => {
    expect(projectFromRemote('git@github.com:octo/widgets.git')).toEqual({
      key: 'octo/widgets',
      ref: 'https://github.com/octo/widgets',
    });
    expect(projectFromRemote('https://token:x-oauth@github.com/octo/widgets/')).toEqual({
      key: 'octo/widgets',
      ref: 'https://github.com/octo/widgets',
    });
    expect(projectFromRemote('ssh://git@gitlab.example.com:2222/group/sub/repo.git')).toEqual({ key: 'sub/repo' }); // private host: no URL
    expect(projectFromRemote('git@GitLab.com:group/sub/repo.git')).toEqual({
      key: 'sub/repo',
      ref: 'https://gitlab.com/group/sub/repo',
    });
    expect(projectFromRemote('/srv/git/repo.git')).toBeUndefined();
    expect(projectFromRemote('file:///srv/git/repo.git')).toBeUndefined();
    expect(projectFromRemote('../other')).toBeUndefined();
  });

  it('prefers origin, else the first remote', () => {
    expect(
      remoteUrlFromConfig(
        '[remote "upstream"]\n url = git@a.com:u/one.git\n[remote "origin"]\n\turl = git@a.com:o/two.git\n',
      ),
    ).toBe('git@a.com:o/two.git');
    expect(remoteUrlFromConfig('[remote "fork"]\n\turl = git@a.com:f/three.git\n')).toBe('git@a.com:f/three.git');
    expect(remoteUrlFromConfig('[core]\n\tbare = false\n')).toBeUndefined();
  });
});

describe('small helpers', () => {
  it('reads on worker threads by default only from three cores on', () => {
    expect([1, 2, 3, 4, 8, 9, 64].map(defaultThreads)).toEqual([0, 1, 2, 3, 7, 8, 8]);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 06:00:10 GMT', Date.UTC(2026, 10, 22, 6, 0, 0))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('reads instants in ISO, epoch seconds and epoch milliseconds', () => {
    const ms = Date.UTC(2026, 10, 1, 10, 29, 59, 999);
    expect(parseInstant('2026-11-01T10:29:59.999Z')).toBe(ms);
    expect(parseInstant(ms)).toBe(ms);
    expect(parseInstant(ms / 1000)).toBe(ms);
    expect(parseInstant(String(ms))).toBe(ms);
    expect(parseInstant('yesterday')).toBeUndefined();
    expect(parseInstant('not a dateZ')).toBeUndefined();
    expect(parseInstant('2026-11-01T10:29:59.999+00:00Z')).toBe(
      Date.parse('2026-11-01T10:29:59.999+00:00Z') || undefined,
    );
    const tz = process.env['TZ'];
    process.env['TZ'] = 'Asia/Kathmandu';
    try {
      expect(parseInstant('2026-11-01T10:29:59.999')).toBe(ms); // no zone: UTC, not local time
      expect(parseInstant('2026-11-01 10:29:59.999')).toBe(ms);
    } finally {
      process.env['TZ'] = tz;
    }
    expect(parseInstant('2026-11-01T12:29:59.999+02:00')).toBe(ms);
    expect(halfHourStart(ms)).toBe(Date.UTC(2026, 10, 1, 10, 0));
    expect(halfHourStart(ms + 1)).toBe(Date.UTC(2026, 10, 1, 10, 30));
  });

  it('writes counts with their noun and sizes in decimal units', () => {
    expect([counted(1, 'bucket'), counted(17, 'bucket'), counted(1234, 'log file')]).toEqual([
      '1 bucket',
      '17 buckets',
      '1,234 log files',
    ]);
    expect([0, 173, 999, 1000, 12_345, 999_499, 999_500, 181_000_000, 1_041_000_000].map(formatBytes)).toEqual([
      '0 B',
      '173 B',
      '999 B',
      '1.00 KB',
      '12.3 KB',
      '999 KB',
      '1.00 MB',
      '181 MB',
      '1.04 GB',
    ]);
  });

  it('packs groups into batches of at most 500 buckets without splitting a group', () => {
    const g = (n: number) => ({ g: `g${n}`, b: Array.from({ length: n }, () => ({}) as never) });
    const batches = packBatches([g(300), g(150), g(100), g(499), g(2)]);
    expect(batches.map((b) => b.map((x) => x.b.length))).toEqual([[300, 150], [100], [499], [2]]);
  });

  it('keeps an unsent queue small by dropping superseded versions of a group', () => {
    const q = new UploadQueue(path.join(h.root, 'state'));
    const bucket = (t: number) => ({
      hour_start: '2026-11-01T10:00:00.000Z',
      source: 'claude',
      model: `m${t % 50}`,
      input_tokens: t,
      cached_input_tokens: 0,
      output_tokens: 0,
      reasoning_output_tokens: 0,
      total_tokens: t,
    });
    for (let i = 0; i < 800; i += 1)
      q.append([
        { g: 'g1', b: Array.from({ length: 50 }, (_, k) => bucket(i * 50 + k)) },
        { g: `once${i % 3}`, b: [bucket(i)] },
      ]);
    expect(fs.statSync(path.join(h.root, 'state', 'queue.jsonl')).size).toBeLessThan(8.5 * 1024 * 1024);
    const pending = q.pending();
    expect(pending.map((g) => g.g).sort()).toEqual(['g1', 'once0', 'once1', 'once2']);
    expect(pending.find((g) => g.g === 'g1')?.b[0]?.total_tokens).toBe(799 * 50);
  });

  it('resolves every location from the environment', () => {
    expect(ownPaths(h.env).configFile).toBe(path.join(h.env['XDG_CONFIG_HOME'] as string, 'tokentally', 'config.json'));
    expect(ownPaths(h.env).stateDir).toBe(path.join(h.env['XDG_STATE_HOME'] as string, 'tokentally'));
    const r = agentRoots(h.env);
    expect(r.codexHome).toBe(h.env['CODEX_HOME']);
    expect(r.geminiDir).toBe(path.join(h.env['GEMINI_CLI_HOME'] as string, '.gemini'));
    const bare = agentRoots({ HOME: '/home/u' });
    expect(bare.claudeDirs).toEqual(['/home/u/.claude', '/home/u/.config/claude']);
    expect(bare.opencodeDir).toBe('/home/u/.local/share/opencode');
    expect(ownPaths({ HOME: '/home/u', XDG_CONFIG_HOME: 'relative' }).configDir).toBe('/home/u/.config/tokentally');
  });

  it('holds the lock until released and treats a dead holder as stale', () => {
    const file = path.join(h.root, 'state', 'sync.lock');
    const a = acquireLock(file);
    expect(a).toBeDefined();
    expect(acquireLock(file)).toBeUndefined();
    expect(isLocked(file)).toBe(true);
    a?.release();
    expect(isLocked(file)).toBe(false);
    fs.writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 11, at: Date.now() }));
    const b = acquireLock(file);
    expect(b).toBeDefined();
    b?.release();
  });

  it('draws a progress bar only on a TTY and never when quiet', () => {
    let tty = '';
    let pipe = '';
    createOutput({ write: () => true }, { write: (t: string) => (tty += t), isTTY: true, columns: 80 })
      .progress('Reading', 100)
      .update(50);
    createOutput({ write: () => true }, { write: (t: string) => (pipe += t) })
      .progress('Reading', 100)
      .update(50);
    let quiet = '';
    createOutput({ write: () => true }, { write: (t: string) => (quiet += t), isTTY: true }, true)
      .progress('Reading', 100)
      .update(50);
    expect(tty).toContain(' 50%');
    expect(pipe).toBe('');
    expect(quiet).toBe('');
  });
});
