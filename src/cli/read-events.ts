/**
 * @fileoverview What one parser pass over one file reported, as plain data: the sink calls in
 * order (records, malformed and skipped counts), the resume offset and the parser state, or
 * the failure. A read worker (read-worker.ts) records a pass with {@link readFile} and packs it
 * ({@link packRead}); the engine replays the packed calls ({@link replayPacked}) into the same
 * sink it hands a parser on its own thread ({@link parseInto}), so a parallel read folds exactly
 * the calls a one-thread read would, in the same order.
 */
import type { AgentParser, LogFile, ParseContext, ParseStart, RecordSink, UpsertOptions } from './parsers/types.js';
import { SourceUnavailableError } from './sqlite.js';
import type { UsageRecord } from './usage.js';

/**
 * One sink call, packed into an array of primitives (cheap to copy between threads):
 * `[0, ts, source, model, input, cached, output, reasoning, total, cwd, session]` for `add`,
 * `[1, id, ts, source, model, input, cached, output, reasoning, total, cwd, group, sidechain, session]`
 * for `upsert`, `[2, n]` for malformed and `[3, n]` for skipped (`null` where absent).
 */
export type ReadEvent =
  | [0, number, string, string, number, number, number, number, number, string | null, string | null]
  | [
      1,
      string,
      number,
      string,
      string,
      number,
      number,
      number,
      number,
      number,
      string | null,
      string | null,
      0 | 1,
      string | null,
    ]
  | [2, number]
  | [3, number];

export type FileRead =
  | { ok: true; events: ReadEvent[]; offset: number; state: unknown }
  | { ok: false; unavailable: boolean; message: string };

/** How a parser pass ended: where to resume and the parser's state, or the failure. */
export type ReadEnd =
  { ok: true; offset: number; state: unknown } | { ok: false; unavailable: boolean; message: string };

/**
 * Run `parser` over `file` from `start`, handing what it reports straight to `sink`. Never
 * throws: a failure is returned, and the sink may then have seen part of the file (the engine
 * applies a file's calls only once its pass succeeded).
 */
export function parseInto(
  parser: AgentParser,
  file: LogFile,
  start: ParseStart,
  ctx: ParseContext,
  sink: RecordSink,
): ReadEnd {
  try {
    const result = parser.parse(file, start, sink, ctx);
    return { ok: true, offset: result.offset, state: result.state };
  } catch (err) {
    return {
      ok: false,
      unavailable: err instanceof SourceUnavailableError,
      message: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Run `parser` over `file` from `start`, recording what it reports. Never throws. */
export function readFile(parser: AgentParser, file: LogFile, start: ParseStart, ctx: ParseContext): FileRead {
  const events: ReadEvent[] = [];
  const sink: RecordSink = {
    add(r) {
      const c = r.counts;
      events.push([
        0,
        r.ts,
        r.source,
        r.model,
        c.input,
        c.cached,
        c.output,
        c.reasoning,
        c.total,
        r.cwd ?? null,
        r.session ?? null,
      ]);
    },
    upsert(id, r, o) {
      const c = r.counts;
      events.push([
        1,
        id,
        r.ts,
        r.source,
        r.model,
        c.input,
        c.cached,
        c.output,
        c.reasoning,
        c.total,
        r.cwd ?? null,
        o?.group ?? null,
        o?.sidechain === true ? 1 : 0,
        r.session ?? null,
      ]);
    },
    malformed(n = 1) {
      events.push([2, n]);
    },
    skipped(n = 1) {
      events.push([3, n]);
    },
  };
  const end = parseInto(parser, file, start, ctx, sink);
  return end.ok ? { ok: true, events, offset: end.offset, state: end.state } : end;
}

/**
 * A {@link FileRead} as sent between threads: every event's fields in one `Float64Array`
 * (strings as indexes into `strings`, each distinct string once, `-1` for null). Cloning a
 * few arrays and a short string list costs far less than cloning an array per event, and the
 * receiver gets each repeated string (a session, a model, a message id) as one string.
 */
export type PackedRead =
  | { ok: true; strings: string[]; data: Float64Array; offset: number; state: unknown }
  | { ok: false; unavailable: boolean; message: string };

/** Fields of each event kind that are strings (or null), by position. */
const STRING_FIELDS: readonly (readonly boolean[])[] = [
  [false, false, true, true, false, false, false, false, false, true, true],
  [false, true, false, true, true, false, false, false, false, false, true, true, false, true],
  [false, false],
  [false, false],
];

export function packRead(read: FileRead): PackedRead {
  if (!read.ok) return read;
  const strings: string[] = [];
  const index = new Map<string, number>();
  let size = 0;
  for (const e of read.events) size += e.length;
  const data = new Float64Array(size);
  let at = 0;
  for (const e of read.events) {
    const kinds = STRING_FIELDS[e[0]] as readonly boolean[];
    for (let f = 0; f < e.length; f += 1) {
      const v = e[f] as string | number | null;
      if (kinds[f] !== true) data[at] = v as number;
      else if (v === null) data[at] = -1;
      else {
        let i = index.get(v as string);
        if (i === undefined) {
          i = strings.push(v as string) - 1;
          index.set(v as string, i);
        }
        data[at] = i;
      }
      at += 1;
    }
  }
  return { ok: true, strings, data, offset: read.offset, state: read.state };
}

/**
 * Hand a packed read's calls to `sink`, in the order the parser made them, straight from its
 * numbers (no event arrays rebuilt): as the parser made them.
 */
export function replayPacked(packed: PackedRead & { ok: true }, sink: RecordSink): void {
  const { strings, data } = packed;
  const str = (at: number): string => strings[data[at] as number] as string;
  const opt = (at: number): string | undefined => (data[at] === -1 ? undefined : str(at));
  /** The record whose time, source, model and five counts start at `at`. */
  const record = (at: number, cwdAt: number, sessionAt: number): UsageRecord => {
    const rec: UsageRecord = {
      ts: data[at] as number,
      source: str(at + 1),
      model: str(at + 2),
      counts: {
        input: data[at + 3] as number,
        cached: data[at + 4] as number,
        output: data[at + 5] as number,
        reasoning: data[at + 6] as number,
        total: data[at + 7] as number,
      },
    };
    const cwd = opt(cwdAt);
    if (cwd !== undefined) rec.cwd = cwd;
    const session = opt(sessionAt);
    if (session !== undefined) rec.session = session;
    return rec;
  };
  let at = 0;
  while (at < data.length) {
    const kind = data[at] as number;
    if (kind === 0) sink.add(record(at + 1, at + 9, at + 10));
    else if (kind === 1) {
      const group = opt(at + 11);
      const sidechain = data[at + 12] === 1;
      const o: UpsertOptions = {};
      if (group !== undefined) o.group = group;
      if (sidechain) o.sidechain = true;
      // the parsers pass no options object at all when there is no group
      sink.upsert(str(at + 1), record(at + 2, at + 10, at + 13), group !== undefined || sidechain ? o : undefined);
    } else if (kind === 2) sink.malformed(data[at + 1]);
    else sink.skipped(data[at + 1]);
    at += (STRING_FIELDS[kind] as readonly boolean[]).length;
  }
}
