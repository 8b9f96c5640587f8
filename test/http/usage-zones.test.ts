/** The batch day-start helper the analytics service uses agrees with the one-day-at-a-time reference. */
import { describe, expect, it } from 'vitest';
import { epochDayOf } from '../../src/domain/calendar.js';
import { resolveZone, startOfLocalEpochDay, startsOfLocalEpochDays } from '../../src/domain/zones.js';

describe('startsOfLocalEpochDays', () => {
  const zones = [
    'UTC',
    'America/New_York',
    'Europe/London',
    'America/Santiago',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Apia',
    'America/Havana',
  ];
  it.each(zones)('%s: two years of day starts equal startOfLocalEpochDay', (tz) => {
    const zone = resolveZone({ tz });
    const first = epochDayOf('2025-01-01');
    const days = Array.from({ length: 731 }, (_, i) => first + i);
    expect(startsOfLocalEpochDays(zone, days)).toEqual(days.map((d) => startOfLocalEpochDay(zone, d)));
  });
  it('fixed offsets', () => {
    const zone = resolveZone({ tz_offset_minutes: 345 });
    const days = [epochDayOf('2026-03-08'), epochDayOf('2026-03-09')];
    expect(startsOfLocalEpochDays(zone, days)).toEqual(days.map((d) => startOfLocalEpochDay(zone, d)));
  });
});
