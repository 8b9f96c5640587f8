/**
 * @fileoverview The contract between the sync engine and one agent's parser. A parser finds
 * its log files and turns new content into {@link UsageRecord}s in wire meaning; the engine
 * owns cursors, deduplication ledgers and buckets.
 */
import type { AgentRoots } from '../paths.js';
import type { UsageRecord } from '../usage.js';

export type AgentId =
  | 'codex'
  | 'every-code'
  | 'claude'
  | 'gemini'
  | 'opencode'
  | 'qwen'
  | 'kimi'
  | 'pi'
  | 'openclaw'
  | 'amp'
  | 'droid'
  | 'cline'
  | 'roo-code'
  | 'kilo-code'
  | 'copilot'
  | 'goose'
  | 'crush';

/** How the engine may resume a file. */
export type FileFormat =
  /** append-only lines: resume at the byte offset */
  | 'jsonl'
  /** a document rewritten in place: re-read whole when it changed */
  | 'document';

export interface LogFile {
  path: string;
  /** Cursor identity. Usually the path; Codex uses the rollout name so an archived move keeps it. */
  key: string;
  format: FileFormat;
  /** Extra files whose change also means "re-read" (e.g. a SQLite -wal file). */
  companions?: string[];
  /** The parser's state survives the file being replaced (a new inode at the same path). */
  keepState?: boolean;
}

export interface UpsertOptions {
  /** Records sharing a group (Claude: the message id) may be replays of one another. */
  group?: string;
  /** A sidechain replay loses to a non-sidechain record of the same group. */
  sidechain?: boolean;
}

/**
 * Where a parser puts what it found. `add` is for counts that happen exactly once in this file
 * (Codex deltas); `upsert` is for records with a stable id that may be seen again in this or
 * another file (the fullest version wins, per field).
 */
export interface RecordSink {
  add(rec: UsageRecord): void;
  upsert(id: string, rec: UsageRecord, opts?: UpsertOptions): void;
  /** A line or document that could not be understood. */
  malformed(count?: number): void;
  /** A usage-bearing record deliberately not counted (duplicate, replay, out of range). */
  skipped(count?: number): void;
}

export interface ParseStart {
  offset: number;
  /** The parser's own running state from the previous pass over this file, if resuming. */
  state: unknown;
}

export interface ParseResult {
  offset: number;
  state: unknown;
}

export interface ParseContext {
  now: number;
  /** All files this parser discovered in this run (Codex looks up fork parents here). */
  files: readonly LogFile[];
}

export interface AgentParser {
  agent: AgentId;
  /** Directories the parser reads, for `status` and `doctor`. */
  roots(roots: AgentRoots): string[];
  discover(roots: AgentRoots): LogFile[];
  /** Some of its files are SQLite databases (read through sqlite.ts). */
  needsSqlite?: boolean;
  /** Set when the tool records no (or only some) token counts: what `doctor` tells the user. */
  noTokenCounts?: string;
  parse(file: LogFile, start: ParseStart, sink: RecordSink, ctx: ParseContext): ParseResult;
}
