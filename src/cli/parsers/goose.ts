/**
 * @fileoverview Goose: the SQLite store `<GOOSE_DATA_DIR|$XDG_DATA_HOME/goose>/sessions/sessions.db`,
 * read through sqlite.ts (node:sqlite or better-sqlite3). Goose keeps running totals per session
 * (`accumulated_input_tokens`, `accumulated_output_tokens`; older rows only `input_tokens`,
 * `output_tokens`), the session's `updated_at`, and the model in `model_config_json`. There is no
 * per-request record, so each increase of a session's total is filed at its `updated_at`
 * (running-totals.ts). Goose does not split cache reads out of its input count, so cached = 0.
 *
 * Wire meaning: input = input tokens; output = output tokens; cached = reasoning = 0; total = the sum.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, str } from '../json-file.js';
import { grow, segmentsOf, type Segment } from '../running-totals.js';
import { SQLITE_MISSING, SourceUnavailableError, sqliteDriver } from '../sqlite.js';
import { normalizeModel, parseInstant, toCount, unpackCounts } from '../usage.js';
import type { AgentParser, LogFile } from './types.js';

function modelOf(json: unknown): string {
  if (typeof json !== 'string') return 'unknown';
  try {
    const cfg: unknown = JSON.parse(json);
    return normalizeModel(isRecord(cfg) ? cfg['model_name'] : undefined);
  } catch {
    return 'unknown';
  }
}

export const gooseParser: AgentParser = {
  agent: 'goose',
  needsSqlite: true,
  roots: (r) => [path.join(r.gooseDir, 'sessions')],
  discover(r) {
    const p = path.join(r.gooseDir, 'sessions', 'sessions.db');
    return fs.existsSync(p)
      ? [{ path: p, key: p, format: 'document', companions: [`${p}-wal`] } satisfies LogFile]
      : [];
  },
  parse(file, start, sink) {
    const driver = sqliteDriver();
    if (driver === null) throw new SourceUnavailableError(`Goose database ${file.path} not read: ${SQLITE_MISSING}`);
    const db = driver.open(file.path);
    const previous = isRecord(start.state) && isRecord(start.state['sessions']) ? start.state['sessions'] : {};
    const sessions: Record<string, Segment[]> = {};
    try {
      const cols = new Set(db.all("SELECT name FROM pragma_table_info('sessions')").map((c) => String(c['name'])));
      const pick = (...names: string[]): string => names.find((n) => cols.has(n)) ?? '0';
      const rows = db.all(
        `SELECT id, ${pick('updated_at', 'created_at')} AS at, ${pick('accumulated_input_tokens', 'input_tokens')} AS input, ` +
          `${pick('accumulated_output_tokens', 'output_tokens')} AS output, ${cols.has('model_config_json') ? 'model_config_json' : 'NULL'} AS model, ` +
          `${cols.has('working_dir') ? 'working_dir' : 'NULL'} AS cwd FROM sessions`,
      );
      for (const row of rows) {
        const id = String(row['id']);
        const input = toCount(row['input']);
        const output = toCount(row['output']);
        if (input + output === 0) continue;
        const ts = parseInstant(row['at']);
        if (ts === undefined) {
          sink.malformed();
          continue;
        }
        const segments = grow(
          segmentsOf(previous[id]),
          { input, cached: 0, output, reasoning: 0, total: input + output },
          ts,
        );
        sessions[id] = segments;
        const model = modelOf(row['model']);
        for (const s of segments)
          sink.add({
            ts: s.ts,
            source: 'goose',
            model,
            counts: unpackCounts(s.c),
            cwd: str(row['cwd']),
            session: id,
          });
      }
    } finally {
      db.close();
    }
    return { offset: 0, state: Object.keys(sessions).length > 0 ? { sessions } : null };
  },
};

/** Crush keeps per session only the last request's token counts (and a running cost), so nothing can be counted. */
export const crushParser: AgentParser = {
  agent: 'crush',
  noTokenCounts:
    'Crush stores only the last request’s token counts per session (plus a running cost), not each request’s: its usage cannot be counted',
  roots: (r) => [r.crushDir],
  discover: () => [],
  parse: () => ({ offset: 0, state: null }),
};
