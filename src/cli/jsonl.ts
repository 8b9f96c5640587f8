/**
 * @fileoverview Fast incremental reading of append-only JSONL logs. Reads from a byte offset
 * in large chunks, hands over only complete lines (a half-written last line waits for the next
 * sync), and skips lines that contain none of the caller's "needles" without decoding them,
 * which is what makes a first sync of a large tree fast.
 */
import fs from 'node:fs';

const CHUNK = 4 * 1024 * 1024;
/** One read buffer for the whole process (reads are synchronous), grown when a line needs it. */
let shared: Buffer | undefined;
const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;

/** What one read pass saw, for the parser's counters. */
export interface LineStats {
  lines: number;
  malformed: number;
}

/**
 * `TOKENTALLY_FULL_PARSE=1` turns the key scan off: every line is parsed as JSON and handed to
 * the parser. Only for proving the scan exact (tests and bench:cli compare both reads); read
 * per file, so a worker thread (which shares the environment) honours it too.
 */
function fullParse(): boolean {
  return process.env['TOKENTALLY_FULL_PARSE'] === '1';
}

/** How far into a line the `skipMarkers` are looked for. */
const MARKER_WINDOW = 512;

/**
 * Call `onObject` for each complete line from `offset` that contains one of `needles` and
 * parses to a JSON object; returns the offset just past the last complete line.
 * Lines that do not start with `{` or fail to parse are counted as malformed and skipped.
 * A line whose first 512 bytes contain one of `skipMarkers` (e.g. `"type":"response_item"`,
 * a line type known to carry no usage) is skipped without searching the rest of it.
 */
export function readJsonl(
  file: string,
  offset: number,
  needles: readonly string[],
  onObject: (obj: Record<string, unknown>, lineStart: number) => void,
  stats: LineStats,
  skipMarkers: readonly string[] = [],
): number {
  const fd = fs.openSync(file, 'r');
  const scan = !fullParse();
  const needleBufs = scan ? needles.map((n) => Buffer.from(n, 'utf8')) : [];
  const markerBufs = scan ? skipMarkers.map((n) => Buffer.from(n, 'utf8')) : [];
  try {
    let pos = offset;
    let carry: Buffer | undefined;
    shared ??= Buffer.allocUnsafe(CHUNK);
    let buf = shared;
    for (;;) {
      const carryLen = carry?.length ?? 0;
      if (carryLen + CHUNK > buf.length) shared = buf = Buffer.allocUnsafe(carryLen + CHUNK);
      if (carry !== undefined) carry.copy(buf, 0);
      const n = fs.readSync(fd, buf, carryLen, CHUNK, pos + carryLen);
      if (n === 0) break;
      const end = carryLen + n;
      let lineStart = 0;
      for (;;) {
        const nl = buf.indexOf(NEWLINE, lineStart);
        if (nl === -1 || nl >= end) break;
        handleLine(buf, lineStart, nl, pos + lineStart, needleBufs, markerBufs, onObject, stats);
        lineStart = nl + 1;
      }
      pos += lineStart;
      carry = lineStart < end ? Buffer.from(buf.subarray(lineStart, end)) : undefined;
      if (carry !== undefined && carry.length > 256 * 1024 * 1024) {
        // A single "line" larger than 256 MiB is not a log line; skip it.
        stats.malformed += 1;
        pos += carry.length;
        carry = undefined;
      }
    }
    return pos;
  } finally {
    fs.closeSync(fd);
  }
}

function handleLine(
  buf: Buffer,
  start: number,
  end: number,
  absStart: number,
  needles: readonly Buffer[],
  markers: readonly Buffer[],
  onObject: (obj: Record<string, unknown>, lineStart: number) => void,
  stats: LineStats,
): void {
  let s = start;
  while (s < end && (buf[s] === 0x20 || buf[s] === 0x09 || buf[s] === 0x0d)) s += 1;
  if (s >= end) return; // blank line
  stats.lines += 1;
  if (buf[s] !== OPEN_BRACE) {
    stats.malformed += 1;
    return;
  }
  if (markers.length > 0) {
    const head = buf.subarray(s, Math.min(end, s + MARKER_WINDOW));
    for (const m of markers) if (head.indexOf(m) !== -1) return;
  }
  if (needles.length > 0) {
    const line = buf.subarray(s, end);
    let hit = false;
    for (const n of needles) {
      if (line.indexOf(n) !== -1) {
        hit = true;
        break;
      }
    }
    if (!hit) return;
  }
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8', s, end));
  } catch {
    stats.malformed += 1;
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    stats.malformed += 1;
    return;
  }
  onObject(value as Record<string, unknown>, absStart);
}
