/**
 * @fileoverview The only place the CLI writes to the terminal. Results go to stdout (silenced
 * by `--quiet` except for explicit data such as `report`), warnings and errors to stderr, and a
 * progress bar is drawn only when stderr is a TTY and the run is not quiet.
 */
import { stripColour } from './style.js';

export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Output {
  /** Data the user asked for (report, status): always printed. */
  data(text: string): void;
  /** Progress notes and summaries: printed unless quiet. */
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
  readonly quiet: boolean;
  /** A progress bar; a no-op unless stderr is a TTY and not quiet. */
  progress(label: string, total: number): Progress;
}

export interface Progress {
  update(done: number): void;
  done(): void;
}

const NO_PROGRESS: Progress = { update: () => undefined, done: () => undefined };

export function createOutput(stdout: TextSink, stderr: TextSink, quiet = false): Output {
  return {
    quiet,
    data: (t) => void stdout.write(`${t}\n`),
    info: (t) => {
      if (!quiet) stdout.write(`${t}\n`);
    },
    warn: (t) => void stderr.write(`warning: ${t}\n`),
    error: (t) => void stderr.write(`error: ${t}\n`),
    progress(label, total) {
      if (quiet || stderr.isTTY !== true || total <= 0) return NO_PROGRESS;
      return createBar(stderr, label, total);
    },
  };
}

function createBar(stream: TextSink, label: string, total: number): Progress {
  const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - 20));
  let last = -1;
  const draw = (done: number): void => {
    const ratio = Math.min(1, done / total);
    const pct = Math.floor(ratio * 100);
    if (pct === last) return;
    last = pct;
    const filled = Math.round(ratio * width);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}%`);
  };
  draw(0);
  return {
    update: draw,
    done: () => {
      draw(total);
      stream.write('\n');
    },
  };
}

/** Human figure with thousands separators (never locale-dependent). */
export function formatInt(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `1 bucket`, `17 buckets`: a count with its noun (plural by `s` unless given). */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatInt(n)} ${n === 1 ? noun : plural}`;
}

/** A byte size in decimal units, three significant figures (`812 B`, `12.3 KB`, `349 MB`, `1.04 GB`). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let u = 0;
  while (v >= 999.5 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[u] as string}`;
}

/**
 * Render rows as an aligned plain-text table: the first `textColumns` columns left-aligned, the
 * figures after them right-aligned. Colour escapes take no width.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[], textColumns = 1): string {
  const width = (cell: string): number => stripColour(cell).length;
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const pad = (cell: string, w: number, left: boolean): string => {
    const fill = ' '.repeat(Math.max(0, w - width(cell)));
    return left ? cell + fill : fill + cell;
  };
  const fmt = (r: readonly string[]): string =>
    r
      .map((cell, i) => pad(cell, widths[i] ?? 0, i < textColumns))
      .join('  ')
      .trimEnd();
  return [fmt(header), ...rows.map(fmt)].join('\n');
}
