/**
 * @fileoverview Codex CLI (and Every Code) rollout parser. Reads
 * `<home>/sessions/YYYY/MM/DD/rollout-*.jsonl` and `<home>/archived_sessions/`, preferring
 * the live copy, and turns `token_count` events into per-turn deltas in Codex meaning
 * (cached ⊂ input, reasoning ⊂ output, total = input + output).
 *
 * Pitfalls handled (anchors.md §6.3): `last_token_usage` preferred over the cumulative total;
 * duplicate `token_count` events (same total) skipped; stale out-of-order snapshots skipped;
 * counter resets (total goes down) count the turn, not the whole total; `info: null` rows;
 * model from `turn_context`; forked rollouts (`session_meta.forked_from_id`) replay the
 * parent's history, which is skipped (ccusage #1369/#1371, tokei #23).
 */
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import type { AgentRoots } from '../paths.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile, ParseContext, ParseResult, ParseStart, RecordSink } from './types.js';

/** Replayed parent history is written within this window after the fork starts. */
const FORK_REPLAY_WINDOW_MS = 2500;
/** How many recent cumulative snapshots are remembered to recognise stale re-sends. */
const RECENT_SNAPSHOTS = 16;
const NEEDLES = ['"token_count"', '"turn_context"', '"session_meta"'];
const ROLLOUT_ID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** Per-file running state kept in the cursor between syncs. */
interface CodexFileState {
  model?: string;
  cwd?: string;
  /** Last counted cumulative total, as a fingerprint and its total_tokens. */
  prevFp?: string;
  recent: string[];
  forkParent?: string;
  forkStart?: number;
  replaying?: boolean;
  sawMeta?: boolean;
}

function loadState(raw: unknown): CodexFileState {
  if (!isRecord(raw)) return { recent: [] };
  const recent = Array.isArray(raw['recent']) ? raw['recent'].filter((x): x is string => typeof x === 'string') : [];
  const s: CodexFileState = { recent };
  const model = str(raw['model']);
  if (model !== undefined) s.model = model;
  const cwd = str(raw['cwd']);
  if (cwd !== undefined) s.cwd = cwd;
  const prevFp = str(raw['prevFp']);
  if (prevFp !== undefined) s.prevFp = prevFp;
  const forkParent = str(raw['forkParent']);
  if (forkParent !== undefined) s.forkParent = forkParent;
  if (typeof raw['forkStart'] === 'number') s.forkStart = raw['forkStart'];
  if (raw['replaying'] === true) s.replaying = true;
  if (raw['sawMeta'] === true) s.sawMeta = true;
  return s;
}

interface RawUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
  total: number;
}

function readUsage(v: unknown): RawUsage | undefined {
  if (!isRecord(v)) return undefined;
  return {
    input: toCount(v['input_tokens']),
    cached: toCount(v['cached_input_tokens'] ?? v['cache_read_input_tokens']),
    output: toCount(v['output_tokens']),
    reasoning: toCount(v['reasoning_output_tokens']),
    total: toCount(v['total_tokens']),
  };
}

function fingerprint(u: RawUsage): string {
  return `${u.input}:${u.cached}:${u.output}:${u.reasoning}:${u.total}`;
}

function unfingerprint(fp: string): RawUsage {
  const [input = 0, cached = 0, output = 0, reasoning = 0, total = 0] = fp.split(':').map(Number);
  return { input, cached, output, reasoning, total };
}

/** Codex counts in wire meaning: total covers input (with cached) and output (with reasoning). */
export function codexCounts(u: RawUsage): Counts {
  return {
    input: u.input,
    cached: Math.min(u.cached, u.input),
    output: u.output,
    reasoning: Math.min(u.reasoning, u.output),
    total: Math.max(u.total, u.input + u.output),
  };
}

function minus(a: RawUsage, b: RawUsage): RawUsage {
  return {
    input: Math.max(0, a.input - b.input),
    cached: Math.max(0, a.cached - b.cached),
    output: Math.max(0, a.output - b.output),
    reasoning: Math.max(0, a.reasoning - b.reasoning),
    total: Math.max(0, a.total - b.total),
  };
}

function tokenCountPayload(obj: Record<string, unknown>): Record<string, unknown> | undefined {
  if (obj['type'] !== 'event_msg') return undefined;
  const payload = obj['payload'];
  if (!isRecord(payload)) return undefined;
  if (payload['type'] === 'token_count') return payload;
  const msg = payload['msg'];
  if (isRecord(msg) && msg['type'] === 'token_count') return msg;
  return undefined;
}

/** Fingerprints of every cumulative snapshot in the parent rollout (for fork replay detection). */
function parentSnapshots(parentId: string, files: readonly LogFile[]): Set<string> {
  const set = new Set<string>();
  const parent = files.find(
    (f) => ROLLOUT_ID.exec(path.basename(f.path))?.[1]?.toLowerCase() === parentId.toLowerCase(),
  );
  if (parent === undefined) return set;
  const stats: LineStats = { lines: 0, malformed: 0 };
  try {
    readJsonl(
      parent.path,
      0,
      ['"token_count"'],
      (obj) => {
        const p = tokenCountPayload(obj);
        const info = p?.['info'];
        if (!isRecord(info)) return;
        const total = readUsage(info['total_token_usage']);
        if (total !== undefined) set.add(fingerprint(total));
      },
      stats,
    );
  } catch {
    // parent unreadable: fall back to the time window alone
  }
  return set;
}

export function createCodexParser(agent: 'codex' | 'every-code'): AgentParser {
  const homeOf = (r: AgentRoots): string => (agent === 'codex' ? r.codexHome : r.everyCodeHome);
  return {
    agent,
    roots: (r) => [path.join(homeOf(r), 'sessions'), path.join(homeOf(r), 'archived_sessions')],
    discover(r) {
      const accept = (name: string): boolean => name.startsWith('rollout-') && name.endsWith('.jsonl');
      const live = walkFiles(path.join(homeOf(r), 'sessions'), accept);
      const archived = walkFiles(path.join(homeOf(r), 'archived_sessions'), accept);
      const seen = new Set(live.map((p) => path.basename(p)));
      const files: LogFile[] = live.map((p) => ({ path: p, key: `${agent}:${path.basename(p)}`, format: 'jsonl' }));
      for (const p of archived) {
        if (!seen.has(path.basename(p))) files.push({ path: p, key: `${agent}:${path.basename(p)}`, format: 'jsonl' });
      }
      return files;
    },
    parse(file: LogFile, start: ParseStart, sink: RecordSink, ctx: ParseContext): ParseResult {
      const st = loadState(start.state);
      let parentSet: Set<string> | undefined;
      const stats: LineStats = { lines: 0, malformed: 0 };
      const offset = readJsonl(
        file.path,
        start.offset,
        NEEDLES,
        (obj) => {
          const type = obj['type'];
          const payload = obj['payload'];
          if (type === 'session_meta' && isRecord(payload)) {
            if (st.sawMeta === true) return; // a fork replays its parent's session_meta too
            st.sawMeta = true;
            const cwd = str(payload['cwd']);
            if (cwd !== undefined) st.cwd = cwd;
            const model = str(payload['model']);
            if (model !== undefined) st.model = normalizeModel(model);
            const forked = str(payload['forked_from_id']);
            if (forked !== undefined && forked !== '') {
              st.forkParent = forked;
              st.forkStart = parseInstant(payload['timestamp']) ?? parseInstant(obj['timestamp']) ?? 0;
              st.replaying = true;
            }
            return;
          }
          if (type === 'turn_context' && isRecord(payload)) {
            const model = str(payload['model']);
            if (model !== undefined) st.model = normalizeModel(model);
            return;
          }
          const tc = tokenCountPayload(obj);
          if (tc === undefined) return;
          const info = tc['info'];
          if (!isRecord(info)) return; // info:null rows carry only rate limits
          const total = readUsage(info['total_token_usage']);
          const last = readUsage(info['last_token_usage']);
          if (total === undefined && last === undefined) return;
          const ts = parseInstant(obj['timestamp']);
          if (ts === undefined) {
            sink.malformed();
            return;
          }
          const fp = total !== undefined ? fingerprint(total) : undefined;
          if (fp !== undefined && fp === st.prevFp) {
            sink.skipped(); // duplicate token_count event
            return;
          }
          if (st.replaying === true) {
            parentSet ??= st.forkParent !== undefined ? parentSnapshots(st.forkParent, ctx.files) : new Set();
            const inWindow =
              st.forkStart !== undefined && st.forkStart > 0 && ts <= st.forkStart + FORK_REPLAY_WINDOW_MS;
            if ((fp !== undefined && parentSet.has(fp)) || inWindow) {
              if (fp !== undefined) remember(st, fp);
              sink.skipped();
              return;
            }
            st.replaying = false;
          }
          if (fp !== undefined && st.recent.includes(fp)) {
            sink.skipped(); // a stale, out-of-order re-send of an earlier snapshot
            return;
          }
          let delta: RawUsage;
          if (last !== undefined) delta = last;
          else if (total !== undefined && st.prevFp !== undefined) {
            const prev = unfingerprint(st.prevFp);
            delta = total.total >= prev.total ? minus(total, prev) : total; // went down: a reset
          } else if (total !== undefined) delta = total;
          else return;
          if (fp !== undefined) remember(st, fp);
          const counts = codexCounts(delta);
          if (counts.total === 0) return;
          // the rollout's file name carries the session id (a fork is a session of its own)
          const session = ROLLOUT_ID.exec(file.path)?.[1] ?? path.basename(file.path, '.jsonl');
          sink.add({ ts, source: agent, model: st.model ?? 'unknown', counts, cwd: st.cwd, session });
        },
        stats,
        ['"type":"response_item"'],
      );
      sink.malformed(stats.malformed);
      return { offset, state: st };
    },
  };
}

function remember(st: CodexFileState, fp: string): void {
  st.prevFp = fp;
  st.recent.push(fp);
  if (st.recent.length > RECENT_SNAPSHOTS) st.recent.splice(0, st.recent.length - RECENT_SNAPSHOTS);
}
