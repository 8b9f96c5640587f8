import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scan } from '../../src/cli/engine.js';
import type { AgentParser } from '../../src/cli/parsers/types.js';
import { agentRoots, ownPaths } from '../../src/cli/paths.js';
import { LocalState } from '../../src/cli/state.js';
import { counts, NOW, readBuckets, tempHomeEach } from './helpers.js';

const h = tempHomeEach();

function run(parser: AgentParser): void {
  const state = new LocalState(ownPaths(h.env).stateDir);
  scan({ roots: agentRoots(h.env), state, parsers: [parser], now: NOW });
  state.commit();
}

describe('engine', () => {
  it('applies nothing from a pass that fails half way, and reads the file again next time', () => {
    const file = path.join(h.root, 'log.jsonl');
    fs.writeFileSync(file, 'x\n');
    let fail = true;
    const parser: AgentParser = {
      agent: 'codex',
      roots: () => [],
      discover: () => [{ path: file, key: 'k', format: 'jsonl' }],
      parse(_f, start, sink) {
        sink.add({ ts: Date.UTC(2026, 10, 1, 10), source: 'codex', model: 'm', counts: counts(10, 0, 1, 0, 11) });
        if (fail) throw new Error('vanished');
        return { offset: 2, state: start.state };
      },
    };
    run(parser);
    expect(readBuckets(h.env)).toEqual({});
    fail = false;
    run(parser);
    run(parser);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|codex|m': counts(10, 0, 1, 0, 11) });
  });

  it('keeps a project link only from a pass that succeeds', () => {
    const repo = path.join(h.root, 'work', 'app');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/app.git\n');
    const file = path.join(h.root, 'log.jsonl');
    fs.writeFileSync(file, 'x\n');
    let fails = 1;
    const parser: AgentParser = {
      agent: 'claude',
      roots: () => [],
      discover: () => [{ path: file, key: 'k', format: 'jsonl' }],
      parse(_f, _s, sink) {
        sink.upsert('id1', {
          ts: Date.UTC(2026, 10, 1, 10),
          source: 'claude',
          model: 'm',
          counts: counts(1, 2, 3, 0, 6),
          cwd: repo,
        });
        if (fails > 0) {
          fails -= 1;
          throw new Error('vanished');
        }
        return { offset: 2, state: null };
      },
    };
    const projects = (): unknown => {
      const raw = fs.readFileSync(path.join(ownPaths(h.env).stateDir, 'state.json'), 'utf8');
      return (JSON.parse(raw) as { projects?: unknown }).projects;
    };
    const state = new LocalState(ownPaths(h.env).stateDir);
    // the failed pass and a successful one of the same record in one scan: the second still
    // keeps the project link the first found and dropped
    scan({ roots: agentRoots(h.env), state, parsers: [parser, { ...parser, agent: 'qwen' }], now: NOW });
    state.commit();
    expect(projects()).toEqual({ 'acme/app': 'https://github.com/acme/app' });
    expect(Object.values(readBuckets(h.env))).toEqual([counts(1, 2, 3, 0, 6)]);

    fails = 1;
    const other = new LocalState(path.join(h.root, 'other-state'));
    scan({ roots: agentRoots(h.env), state: other, parsers: [parser], now: NOW });
    other.commit();
    expect(fs.existsSync(path.join(h.root, 'other-state', 'state.json'))).toBe(false); // nothing kept
  });

  it('keeps the previous generation when a commit is interrupted before state.json', () => {
    const file = path.join(h.root, 'log.jsonl');
    fs.writeFileSync(file, 'x\n');
    const parser: AgentParser = {
      agent: 'claude',
      roots: () => [],
      discover: () => [{ path: file, key: 'k', format: 'jsonl' }],
      parse(_f, _s, sink) {
        sink.upsert('id1', {
          ts: Date.UTC(2026, 10, 1, 10),
          source: 'claude',
          model: 'm',
          counts: counts(1, 2, 3, 0, 6),
        });
        return { offset: 2, state: null };
      },
    };
    run(parser);
    const dir = ownPaths(h.env).stateDir;
    const before = fs.readFileSync(path.join(dir, 'state.json'), 'utf8');
    // a new generation's shard files written, then a crash: state.json still names the old ones
    fs.writeFileSync(path.join(dir, 'buckets-2026-11.99.json'), '{"v":1,"b":[]}');
    expect(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')).toBe(before);
    expect(readBuckets(h.env)).toEqual({ '2026-11-01T10:00|claude|m': counts(1, 2, 3, 0, 6) });
  });
});
