/** @fileoverview Numbers for humans (1.24M, $671.59) and their exact forms; dates in the viewer's locale. */

// Building an Intl formatter costs tens of microseconds; a year's table asks for thousands.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
}

const UNITS: Array<[number, string]> = [
  [1e15, 'P'],
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** A token count shortened to three significant digits: 999, 1.24K, 1.24M, 12.3B. */
export function humanCount(value: number | string | bigint): string {
  const n = typeof value === 'number' ? value : Number(value);
  const abs = Math.abs(n);
  for (const [size, unit] of UNITS) {
    if (abs >= size * 0.9995) {
      const scaled = n / size;
      const digits = Math.abs(scaled) >= 100 ? 0 : Math.abs(scaled) >= 10 ? 1 : 2;
      return `${trimZeros(scaled.toFixed(digits))}${unit}`;
    }
  }
  return String(Math.round(n));
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** The exact integer with thousands separators, from the wire's decimal string (no precision lost past 2^53). */
export function exactCount(value: string | bigint | number, locale = 'en-US'): string {
  const big = typeof value === 'bigint' ? value : BigInt(typeof value === 'number' ? Math.round(value) : value);
  return numberFormat(locale).format(big);
}

/** Dollars for humans: $671.59, $12.3K, $0.0042 (small amounts keep two significant digits). */
export function humanUsd(value: number | string): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (n === 0) return '$0.00';
  const abs = Math.abs(n);
  if (abs >= 100_000) return `${n < 0 ? '-' : ''}$${humanCount(abs)}`;
  if (abs >= 0.01)
    return `${n < 0 ? '-' : ''}$${abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `${n < 0 ? '-' : ''}$${abs.toPrecision(2)}`;
}

/** The exact cost as the server sent it (six decimals), e.g. "$671.590000". */
export function exactUsd(value: string): string {
  return `$${value}`;
}

/** "+12.5 %", "−3 %", "new" when there was nothing before. */
export function humanChange(ratio: number | null): string {
  if (ratio === null) return 'new';
  if (ratio === 0) return '±0 %';
  const pct = ratio * 100;
  const digits = Math.abs(pct) >= 10 ? 0 : 1;
  return `${pct > 0 ? '+' : '−'}${trimZeros(Math.abs(pct).toFixed(digits))} %`;
}

export function humanPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  const pct = ratio * 100;
  return `${trimZeros(pct.toFixed(pct >= 10 || pct === 0 ? 0 : 1))} %`;
}

/** A plain date in the viewer's locale ("Mar 8, 2026"); `weekday` adds the day name. */
export function humanDate(date: string, locale?: string, withWeekday = false): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return dateFormat(locale, {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(withWeekday ? { weekday: 'short' } : {}),
  }).format(Date.UTC(y, m - 1, d));
}

/** "Mar 2026" for "2026-03". */
export function humanMonth(month: string, locale?: string, short = false): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return dateFormat(locale, { timeZone: 'UTC', month: 'short', ...(short ? {} : { year: 'numeric' }) }).format(
    Date.UTC(y, m - 1, 1),
  );
}

/** An instant in the viewer's zone and locale. */
export function humanInstant(iso: string | null, zone: string, locale?: string): string {
  if (!iso) return 'never';
  return dateFormat(locale, { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** "3 minutes ago", "in 2 hours". */
export function relativeTime(iso: string | null, nowMs: number, locale?: string): string {
  if (!iso) return 'never';
  const diff = (new Date(iso).getTime() - nowMs) / 1000;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(Math.round(diff), 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(diff / 3600), 'hour');
  return rtf.format(Math.round(diff / 86_400), 'day');
}

/** "04:59" for a countdown. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The share of the account's stored-bucket bound in use: "1.2M of 5M buckets (24 %)". A share under
 * 1 % that is not nothing reads "< 1 %"; past the bound (a lowered bound) it reads as it is.
 */
export function storageShare(stored: number, max: number): string {
  const pct = max > 0 ? (stored / max) * 100 : 100;
  const share = stored > 0 && pct < 1 ? '< 1' : String(Math.floor(pct));
  return `${humanCount(stored)} of ${humanCount(max)} buckets (${share} %)`;
}
