/**
 * @fileoverview What one parser pass over one file reported, as plain data: the sink calls in
 * order (records, malformed and skipped counts), the resume offset and the parser state, or
 * the failure. The same {@link readFile} runs on the main thread and in the read workers
 * (read-worker.ts), and the engine applies a {@link FileRead} the same way wherever it was made,
 * so a parallel read folds exactly the calls a one-thread read would, in the same order.
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
  try {
    const result = parser.parse(file, start, sink, ctx);
    return { ok: true, events, offset: result.offset, state: result.state };
  } catch (err) {
    return {
      ok: false,
      unavailable: err instanceof SourceUnavailableError,
      message: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Hand recorded calls to `sink`, in the order the parser made them. */
export function replay(events: readonly ReadEvent[], sink: RecordSink): void {
  for (const e of events) {
    switch (e[0]) {
      case 0: {
        const rec: UsageRecord = {
          ts: e[1],
          source: e[2],
          model: e[3],
          counts: { input: e[4], cached: e[5], output: e[6], reasoning: e[7], total: e[8] },
        };
        if (e[9] !== null) rec.cwd = e[9];
        if (e[10] !== null) rec.session = e[10];
        sink.add(rec);
        break;
      }
      case 1: {
        const rec: UsageRecord = {
          ts: e[2],
          source: e[3],
          model: e[4],
          counts: { input: e[5], cached: e[6], output: e[7], reasoning: e[8], total: e[9] },
        };
        if (e[10] !== null) rec.cwd = e[10];
        if (e[13] !== null) rec.session = e[13];
        const o: UpsertOptions = {};
        if (e[11] !== null) o.group = e[11];
        if (e[12] === 1) o.sidechain = true;
        // the parsers pass no options object at all when there is no group
        sink.upsert(e[1], rec, e[11] !== null || e[12] === 1 ? o : undefined);
        break;
      }
      case 2:
        sink.malformed(e[1]);
        break;
      case 3:
        sink.skipped(e[1]);
        break;
    }
  }
}
