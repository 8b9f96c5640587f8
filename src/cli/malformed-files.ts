/**
 * @fileoverview Which file held a malformed line. The engine counts malformed lines per agent;
 * this wraps each parser so the sink's `malformed` calls (and a parse that throws) are also
 * noted per file, for `status` and the sync summary. The parsers and the engine are unchanged.
 */
import type { AgentParser } from './parsers/types.js';
import { SourceUnavailableError } from './sqlite.js';

/** The last file per agent that held malformed lines, and how many in that pass. */
export type MalformedFiles = Record<string, { file: string; lines: number; at: string }>;

export function trackMalformed(
  parsers: readonly AgentParser[],
  note: (agent: string, file: string, lines: number) => void,
): AgentParser[] {
  return parsers.map((p) => ({
    ...p,
    parse(file, start, sink, ctx) {
      let lines = 0;
      const tracked = {
        ...sink,
        malformed(n = 1) {
          lines += n;
          sink.malformed(n);
        },
      };
      try {
        return p.parse(file, start, tracked, ctx);
      } catch (err) {
        if (!(err instanceof SourceUnavailableError)) lines += 1;
        throw err;
      } finally {
        if (lines > 0) note(p.agent, file.path, lines);
      }
    },
  }));
}
