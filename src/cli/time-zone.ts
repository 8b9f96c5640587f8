/**
 * @fileoverview Local calendar dates of UTC instants in an IANA zone, through `Intl` only (no
 * hand-rolled offsets, so DST and odd offsets such as +05:45 are right). A bucket belongs to
 * the local day of its `hour_start`.
 */

export function isValidZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function defaultZone(env: Readonly<Record<string, string | undefined>>): string {
  const tz = env['TZ'];
  if (tz !== undefined && tz !== '' && isValidZone(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Returns a function mapping epoch ms to the local `YYYY-MM-DD` in `tz` (memoised per half-hour). */
export function localDater(tz: string): (ms: number) => string {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  const cache = new Map<number, string>();
  return (ms) => {
    let d = cache.get(ms);
    if (d === undefined) {
      const parts = fmt.formatToParts(new Date(ms));
      const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? '';
      d = `${get('year')}-${get('month')}-${get('day')}`;
      cache.set(ms, d);
    }
    return d;
  };
}

export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
