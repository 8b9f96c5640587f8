/**
 * @fileoverview Plain calendar dates ("YYYY-MM-DD") and zones, without DOM types: the range picker,
 * the previous period and the zone label are computed here and unit-tested (test/web/).
 */

export type IsoDate = string;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a plain date. */
export function dayNumber(date: IsoDate): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

export function fromDayNumber(n: number): IsoDate {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromDayNumber(dayNumber(date) + days);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

export function isIsoDate(text: string | null | undefined): text is IsoDate {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return fromDayNumber(dayNumber(text)) === text;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: IsoDate): number {
  return (((dayNumber(date) + 4) % 7) + 7) % 7;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in `zone` at `nowMs`. */
export function todayIn(zone: string, nowMs: number): IsoDate {
  let format = dayFormats.get(zone);
  if (!format)
    dayFormats.set(
      zone,
      (format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      })),
    );
  const parts = format.formatToParts(nowMs);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset at `nowMs` as "UTC+5:30", "UTC−4", "UTC". */
export function zoneOffsetLabel(zone: string, nowMs: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(nowMs)
    .find((p) => p.type === 'timeZoneName')?.value;
  if (!name || name === 'GMT') return 'UTC';
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!m) return name.replace('GMT', 'UTC');
  const hours = String(Number(m[2]));
  return `UTC${m[1] === '-' ? '−' : '+'}${hours}${m[3] === '00' ? '' : `:${m[3]}`}`;
}

/** "Europe/Paris (UTC+1)": the zone always shown beside the range. */
export function zoneLabel(zone: string, nowMs: number): string {
  const offset = zoneOffsetLabel(zone, nowMs);
  return zone === 'UTC' ? 'UTC' : `${zone.replaceAll('_', ' ')} (${offset})`;
}

/** Number of half-hours in a local day: 48, or 46/50 on a one-hour DST change (47/49 for half-hour shifts). */
export function halfHoursInDay(date: IsoDate, zone: string): number {
  const start = localMidnightUtc(date, zone);
  const end = localMidnightUtc(addDays(date, 1), zone);
  return Math.round((end - start) / 1_800_000);
}

/** The UTC instant of local midnight of `date` in `zone` (the first instant of that local day). */
export function localMidnightUtc(date: IsoDate, zone: string): number {
  const guess = dayNumber(date) * DAY_MS;
  // Offsets are at most ±14 h: walk the candidate instants on half-hour steps and take the first in the day.
  let lo = guess - 15 * 3_600_000;
  let hi = guess + 15 * 3_600_000;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 2 / 60_000) * 60_000;
    if (todayIn(zone, mid) < date) lo = mid;
    else hi = mid;
  }
  return hi;
}
