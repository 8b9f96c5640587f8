import { describe, expect, it } from 'vitest';
import { InvalidParamError } from '../../src/domain/param-error.js';
import {
  UTC_ZONE,
  halfHourSlots,
  localDateAt,
  localRangeToInstants,
  offsetTimeline,
  resolveZone,
  startOfLocalDay,
  todayIn,
  type Zone,
} from '../../src/domain/zones.js';

const ny = resolveZone({ tz: 'America/New_York' });
const kolkata = resolveZone({ tz: 'Asia/Kolkata' });
const kathmandu = resolveZone({ tz: 'Asia/Kathmandu' });
const iso = (s: string): number => Date.parse(s);

function paramOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvalidParamError) return e.param;
    throw e;
  }
  return undefined;
}

describe('resolveZone', () => {
  it('defaults to UTC and lets tz win over the offset', () => {
    expect(resolveZone({})).toBe(UTC_ZONE);
    expect(resolveZone({ tz: '', tz_offset_minutes: '' })).toBe(UTC_ZONE);
    expect(resolveZone({ tz_offset_minutes: 0 })).toBe(UTC_ZONE);
    expect(resolveZone({ tz: 'Asia/Tokyo', tz_offset_minutes: -480 })).toEqual({ kind: 'iana', id: 'Asia/Tokyo' });
    expect(resolveZone({ tz: 'Etc/UTC' })).toBe(UTC_ZONE);
    expect(resolveZone({ tz: 'america/new_york' })).toEqual({ kind: 'iana', id: 'America/New_York' });
  });

  it('accepts offsets east of UTC in minutes', () => {
    expect(resolveZone({ tz_offset_minutes: 480 })).toEqual({ kind: 'offset', id: '+08:00', offsetMinutes: 480 });
    expect(resolveZone({ tz_offset_minutes: '-480' })).toEqual({ kind: 'offset', id: '-08:00', offsetMinutes: -480 });
    expect(resolveZone({ tz_offset_minutes: 345 })).toMatchObject({ id: '+05:45' });
    expect(resolveZone({ tz_offset_minutes: -720 })).toMatchObject({ id: '-12:00' });
    expect(resolveZone({ tz_offset_minutes: 840 })).toMatchObject({ id: '+14:00' });
  });

  it('rejects unknown zones and out-of-range offsets, naming the parameter', () => {
    expect(paramOf(() => resolveZone({ tz: 'Mars/Olympus_Mons' }))).toBe('tz');
    expect(paramOf(() => resolveZone({ tz: '+05:30' }))).toBe('tz');
    expect(paramOf(() => resolveZone({ tz_offset_minutes: 841 }))).toBe('tz_offset_minutes');
    expect(paramOf(() => resolveZone({ tz_offset_minutes: -721 }))).toBe('tz_offset_minutes');
    expect(paramOf(() => resolveZone({ tz_offset_minutes: 1.5 }))).toBe('tz_offset_minutes');
    expect(paramOf(() => resolveZone({ tz_offset_minutes: '60m' }))).toBe('tz_offset_minutes');
    expect(paramOf(() => resolveZone({ tz: 'Asia/Tokyo', tz_offset_minutes: 9999 }))).toBe('tz_offset_minutes');
  });
});

describe('local dates and day boundaries', () => {
  it('finds today in the zone from an injected instant', () => {
    const now = iso('2026-03-08T04:30:00Z');
    expect(todayIn(UTC_ZONE, now)).toBe('2026-03-08');
    expect(todayIn(ny, now)).toBe('2026-03-07');
    expect(todayIn(resolveZone({ tz: 'Asia/Tokyo' }), iso('2026-03-07T15:00:00Z'))).toBe('2026-03-08');
    expect(todayIn(resolveZone({ tz_offset_minutes: -480 }), iso('2026-03-08T07:59:00Z'))).toBe('2026-03-07');
  });

  it('maps local ranges to UTC instants across DST', () => {
    expect(localRangeToInstants(ny, '2026-03-08', '2026-03-08')).toEqual({
      startMs: iso('2026-03-08T05:00:00Z'),
      endMs: iso('2026-03-09T04:00:00Z'),
    });
    const fall = localRangeToInstants(ny, '2026-11-01', '2026-11-01');
    expect(fall.endMs - fall.startMs).toBe(25 * 3_600_000);
    expect(localRangeToInstants(kathmandu, '2026-01-01', '2026-12-31')).toEqual({
      startMs: iso('2025-12-31T18:15:00Z'),
      endMs: iso('2026-12-31T18:15:00Z'),
    });
    expect(startOfLocalDay(resolveZone({ tz_offset_minutes: 330 }), '2026-03-08')).toBe(iso('2026-03-07T18:30:00Z'));
  });

  it('starts a day whose midnight is skipped at the first valid instant', () => {
    // America/Santiago springs forward at 24:00 → 01:00 (2026-09-06).
    const santiago = resolveZone({ tz: 'America/Santiago' });
    const start = startOfLocalDay(santiago, '2026-09-06');
    expect(localDateAt(santiago, start)).toBe('2026-09-06');
    expect(localDateAt(santiago, start - 1)).toBe('2026-09-05');
  });

  it('offset timelines agree with per-instant lookups', () => {
    const zones: Zone[] = [
      ny,
      kathmandu,
      resolveZone({ tz: 'Australia/Lord_Howe' }),
      resolveZone({ tz: 'Europe/London' }),
    ];
    for (const zone of zones) {
      const a = iso('2025-01-01T00:00:00Z');
      const b = iso('2027-01-01T00:00:00Z');
      const tl = offsetTimeline(zone, a, b);
      for (let t = a; t < b; t += 7 * 3_600_000 + 1_800_000) {
        expect(tl.localEpochDayAt(t), `${zone.id} ${new Date(t).toISOString()}`).toBe(
          Math.floor(Date.parse(`${localDateAt(zone, t)}T00:00:00Z`) / 86_400_000),
        );
      }
      // and backwards (unsorted access)
      for (let t = b - 1; t >= a; t -= 11 * 3_600_000) {
        expect(tl.localEpochDayAt(t)).toBe(Math.floor(Date.parse(`${localDateAt(zone, t)}T00:00:00Z`) / 86_400_000));
      }
    }
  });
});

describe('halfHourSlots', () => {
  it('has 48 slots on an ordinary day in UTC', () => {
    const slots = halfHourSlots(UTC_ZONE, '2026-06-01');
    expect(slots).toHaveLength(48);
    expect(slots[0]).toEqual({
      hourStartMs: iso('2026-06-01T00:00:00Z'),
      hour_start: '2026-06-01T00:00:00Z',
      hour: '2026-06-01T00:00:00+00:00',
    });
    expect(slots[47]?.hour_start).toBe('2026-06-01T23:30:00Z');
  });

  it('has 46 slots and no 02:xx label on the New York spring-forward day', () => {
    const slots = halfHourSlots(ny, '2026-03-08');
    expect(slots).toHaveLength(46);
    const labels = slots.map((s) => s.hour);
    expect(labels.some((h) => h.includes('T02:'))).toBe(false);
    expect(labels[3]).toBe('2026-03-08T01:30:00-05:00');
    expect(slots[3]?.hour_start).toBe('2026-03-08T06:30:00Z');
    expect(labels[4]).toBe('2026-03-08T03:00:00-04:00');
    expect(slots[4]?.hour_start).toBe('2026-03-08T07:00:00Z');
    expect(labels[45]).toBe('2026-03-08T23:30:00-04:00');
  });

  it('has 50 slots with the repeated hour labelled by both offsets on the fall-back day', () => {
    const slots = halfHourSlots(ny, '2026-11-01');
    expect(slots).toHaveLength(50);
    expect(slots.slice(2, 6).map((s) => s.hour)).toEqual([
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T01:30:00-05:00',
    ]);
    expect(new Set(slots.map((s) => s.hour_start)).size).toBe(50);
  });

  it('labels half-hour zones on :00/:30 (Asia/Kolkata)', () => {
    const slots = halfHourSlots(kolkata, '2026-03-08');
    expect(slots).toHaveLength(48);
    expect(slots[0]).toMatchObject({ hour_start: '2026-03-07T18:30:00Z', hour: '2026-03-08T00:00:00+05:30' });
    expect(slots[47]).toMatchObject({ hour_start: '2026-03-08T18:00:00Z', hour: '2026-03-08T23:30:00+05:30' });
  });

  it('assigns the bucket straddling local midnight in Asia/Kathmandu to the day of its start', () => {
    const slots = halfHourSlots(kathmandu, '2026-03-08');
    expect(slots).toHaveLength(48);
    // Local day starts 2026-03-07T18:15Z; the first bucket starting inside it is 18:30Z (00:15 local).
    expect(slots[0]).toMatchObject({ hour_start: '2026-03-07T18:30:00Z', hour: '2026-03-08T00:15:00+05:45' });
    // 18:00Z (23:45 local) straddles midnight: it belongs to the day it starts in.
    expect(slots[47]).toMatchObject({ hour_start: '2026-03-08T18:00:00Z', hour: '2026-03-08T23:45:00+05:45' });
    expect(halfHourSlots(kathmandu, '2026-03-07').at(-1)?.hour_start).toBe('2026-03-07T18:00:00Z');
  });

  it('handles fixed offsets and a 30-minute DST shift (Lord Howe: 47 and 49 slots)', () => {
    const pst = resolveZone({ tz_offset_minutes: -480 });
    expect(halfHourSlots(pst, '2026-03-08')[0]).toMatchObject({
      hour: '2026-03-08T00:00:00-08:00',
      hour_start: '2026-03-08T08:00:00Z',
    });
    const lh = resolveZone({ tz: 'Australia/Lord_Howe' });
    expect(halfHourSlots(lh, '2026-04-05')).toHaveLength(49);
    expect(halfHourSlots(lh, '2026-10-04')).toHaveLength(47);
  });
});
