/**
 * @fileoverview Colour and times for a person. Colour only when the stream is a terminal, or when
 * `FORCE_COLOR` asks for it; `NO_COLOR` (any non-empty value) always wins. Without colour the
 * text is exactly the same minus the escape codes, so a pipe gets what a terminal shows.
 * Times are shown in the local zone and relative to now ("2 minutes ago").
 */
import type { TextSink } from './output.js';
import type { CliEnv } from './paths.js';

export interface Style {
  readonly colour: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

/** Whether output to `sink` is coloured under `env` (NO_COLOR > FORCE_COLOR > is a terminal). */
export function wantsColour(env: CliEnv, sink: TextSink): boolean {
  const no = env['NO_COLOR'];
  if (no !== undefined && no !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return sink.isTTY === true && env['TERM'] !== 'dumb';
}

const sgr =
  (on: boolean, open: number, close: number) =>
  (text: string): string =>
    on && text !== '' ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export function createStyle(env: CliEnv, sink: TextSink): Style {
  const on = wantsColour(env, sink);
  return {
    colour: on,
    bold: sgr(on, 1, 22),
    dim: sgr(on, 2, 22),
    red: sgr(on, 31, 39),
    green: sgr(on, 32, 39),
    yellow: sgr(on, 33, 39),
  };
}

/** `text` without colour escapes (for widths and tests). */
export function stripColour(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[\d+m/g, '');
}

/** "just now", "2 minutes ago", "3 hours ago", "5 days ago" (or "in …" for a future instant). */
export function relativeTime(thenMs: number, nowMs: number): string {
  const diff = nowMs - thenMs;
  const abs = Math.abs(diff);
  if (abs < 60_000) return 'just now';
  const [n, unit] =
    abs < 3_600_000
      ? [Math.floor(abs / 60_000), 'minute']
      : abs < 86_400_000
        ? [Math.floor(abs / 3_600_000), 'hour']
        : [Math.floor(abs / 86_400_000), 'day'];
  const phrase = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diff >= 0 ? `${phrase} ago` : `in ${phrase}`;
}

/** `2026-11-02 13:00 GMT+1` in `tz` (24-hour clock, the zone's short name). */
export function localTime(ms: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(new Date(ms));
  const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

/** `2026-11-02 13:00 UTC (2 minutes ago)`, or `never`. */
export function whenText(iso: string | undefined, nowMs: number, tz: string): string {
  if (iso === undefined) return 'never';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return `${localTime(ms, tz)} (${relativeTime(ms, nowMs)})`;
}
