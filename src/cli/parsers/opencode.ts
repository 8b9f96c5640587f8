/**
 * @fileoverview OpenCode parser: the SQLite database of OpenCode ≥ 1.2
 * (`<OPENCODE_DATA_DIR|$XDG_DATA_HOME/opencode>/opencode*.db`, JSON in the `data` column of
 * `message`) and the legacy JSON storage (`storage/message/<sessionID>/msg_*.json`). The
 * database is read with `node:sqlite` or, failing that, better-sqlite3 (sqlite.ts); with neither
 * the sync says so every time rather than skip the source silently. The
 * JSON→SQLite migration leaves both behind, and forked sessions copy history, so every
 * assistant message is keyed by its id and counted once (the fullest version wins).
 *
 * Wire meaning (source `opencode`, all disjoint): input = tokens.input + tokens.cache.write;
 * cached = tokens.cache.read; output = tokens.output; reasoning = tokens.reasoning;
 * total = the sum. The stored `cost` (often 0) is ignored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, str } from '../json-file.js';
import { SQLITE_MISSING, SourceUnavailableError, sqliteDriver, type ReadonlyDb } from '../sqlite.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile, RecordSink } from './types.js';

export function opencodeCounts(tokens: Record<string, unknown>): Counts {
  const cache = isRecord(tokens['cache']) ? tokens['cache'] : {};
  const input = toCount(tokens['input']) + toCount(cache['write']);
  const cached = toCount(cache['read']);
  const output = toCount(tokens['output']);
  const reasoning = toCount(tokens['reasoning']);
  return { input, cached, output, reasoning, total: input + cached + output + reasoning };
}

function emitMessage(m: Record<string, unknown>, fallbackId: string, sink: RecordSink): void {
  if (m['role'] !== 'assistant') return;
  const tokens = m['tokens'];
  if (!isRecord(tokens)) return;
  const counts = opencodeCounts(tokens);
  if (counts.total === 0) return;
  const time = isRecord(m['time']) ? m['time'] : {};
  const ts = parseInstant(time['created']) ?? parseInstant(time['completed']);
  if (ts === undefined) {
    sink.malformed();
    return;
  }
  const pathInfo = isRecord(m['path']) ? m['path'] : {};
  const id = str(m['id']);
  sink.upsert(id !== undefined ? `opencode:${id}` : fallbackId, {
    ts,
    source: 'opencode',
    model: normalizeModel(m['modelID'] ?? m['modelId'] ?? m['model']),
    counts,
    cwd: str(pathInfo['root']) ?? str(pathInfo['cwd']),
    session: str(m['sessionID']) ?? str(m['sessionId']),
  });
}

/**
 * Reads assistant messages from the database. With a `time_updated` column only rows updated
 * since the last pass are read (`>=`, so rows sharing the last timestamp are seen again, which
 * the id-keyed ledger absorbs); otherwise the whole table.
 */
function parseDatabase(file: LogFile, since: number | undefined, sink: RecordSink): number | undefined {
  const driver = sqliteDriver();
  if (driver === null) throw new SourceUnavailableError(`OpenCode database ${file.path} not read: ${SQLITE_MISSING}`);
  let db: ReadonlyDb;
  try {
    db = driver.open(file.path);
  } catch {
    sink.malformed();
    return since;
  }
  let max = since;
  try {
    const cols = db.all("SELECT name FROM pragma_table_info('message')") as { name: string }[];
    if (!cols.some((c) => c.name === 'data')) return since;
    const hasId = cols.some((c) => c.name === 'id');
    const hasUpdated = cols.some((c) => c.name === 'time_updated');
    const hasSession = cols.some((c) => c.name === 'session_id');
    const select = `SELECT ${hasId ? 'id' : 'NULL AS id'}, data, ${hasUpdated ? 'time_updated' : 'NULL'} AS updated, ${hasSession ? 'session_id' : 'NULL'} AS session FROM message`;
    const rows = (
      hasUpdated && since !== undefined ? db.all(`${select} WHERE time_updated >= ?`, since) : db.all(select)
    ) as {
      id: unknown;
      data: unknown;
      updated: unknown;
      session: unknown;
    }[];
    let n = 0;
    for (const row of rows) {
      n += 1;
      if (typeof row.updated === 'number' && (max === undefined || row.updated > max)) max = row.updated;
      if (typeof row.data !== 'string' || !row.data.includes('"assistant"')) continue;
      let m: unknown;
      try {
        m = JSON.parse(row.data);
      } catch {
        sink.malformed();
        continue;
      }
      if (!isRecord(m)) {
        sink.malformed();
        continue;
      }
      if (m['id'] === undefined && typeof row.id === 'string') m['id'] = row.id;
      if (m['sessionID'] === undefined && typeof row.session === 'string') m['sessionID'] = row.session;
      emitMessage(m, `${file.key}#${n}`, sink);
    }
  } catch {
    sink.malformed();
  } finally {
    db.close();
  }
  return max;
}

export const opencodeParser: AgentParser = {
  agent: 'opencode',
  needsSqlite: true,
  roots: (r) => [r.opencodeDir],
  discover(r) {
    const files: LogFile[] = [];
    let names: string[] = [];
    try {
      names = fs.readdirSync(r.opencodeDir).sort();
    } catch {
      names = [];
    }
    for (const name of names) {
      if (!/^opencode.*\.db$/.test(name)) continue;
      const p = path.join(r.opencodeDir, name);
      files.push({ path: p, key: p, format: 'document', companions: [`${p}-wal`] });
    }
    const legacy = walkFiles(path.join(r.opencodeDir, 'storage', 'message'), (name) => name.endsWith('.json'));
    for (const p of legacy) files.push({ path: p, key: p, format: 'document' });
    return files;
  },
  parse(file, start, sink) {
    if (file.path.endsWith('.db')) {
      const prev = isRecord(start.state) && typeof start.state['since'] === 'number' ? start.state['since'] : undefined;
      const since = parseDatabase(file, prev, sink);
      return { offset: 0, state: since !== undefined ? { since } : null };
    }
    let m: unknown;
    try {
      m = JSON.parse(fs.readFileSync(file.path, 'utf8'));
    } catch {
      sink.malformed();
      return { offset: 0, state: null };
    }
    if (isRecord(m)) {
      // `storage/message/<sessionID>/msg_*.json`: the folder names the session
      m['sessionID'] ??= path.basename(path.dirname(file.path));
      emitMessage(m, file.key, sink);
    } else sink.malformed();
    return { offset: 0, state: null };
  },
};
