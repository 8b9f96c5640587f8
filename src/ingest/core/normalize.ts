/**
 * @fileoverview First steps of the ingest pipeline: check each bucket's instant, normalise names,
 * default missing counts, compute billable tokens, and drop earlier duplicates (the last wins).
 * Pure: time comes in as `now`.
 */
import type { Bucket } from '../../domain/bucket.js';
import { EARLIEST_HOUR_START } from '../../domain/calendar.js';
import { billableTokens } from '../../domain/billable.js';
import { fieldName, InvalidInput, type FieldFault } from '../../domain/errors.js';
import { ByProject } from './by-project.js';
import { GroupIndex } from './group-index.js';
import type { IngestRequest, UsageBucket } from '../../schemas/ingest.js';
import { DAY_MS, HALF_HOUR_MS } from '../../domain/calendar.js';

export { EARLIEST_HOUR_START } from '../../domain/calendar.js';

const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Parses an ISO 8601 date-time that carries a zone designator; undefined if malformed or impossible. */
export function parseZonedInstant(text: string): number | undefined {
  return parseCanonicalUtc(text) ?? parseAnyZoned(text);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two ASCII digits at `i` as a number, or NaN. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * The form clients send (`2026-11-23T10:30:00Z`) without a regex: a tenth of the general parser's
 * time on the ingest path. Undefined for anything else (the general parser then decides).
 */
export function parseCanonicalUtc(text: string): number | undefined {
  if (
    text.length !== 20 ||
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== 'T' ||
    text[13] !== ':' ||
    text[16] !== ':' ||
    text[19] !== 'Z'
  )
    return undefined;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  // NaN fails every comparison, so a non-digit anywhere lands here too.
  if (!(month >= 1 && month <= 12 && hour <= 23 && minute <= 59 && second <= 59 && day >= 1)) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  if (!(day <= days && year >= 0)) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The general ISO 8601 parser (any offset, optional seconds and fraction). */
export function parseAnyZoned(text: string): number | undefined {
  const m = ISO_WITH_ZONE.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] ? Number(m[6]) : 0;
  const fraction = m[7] ? Number(m[7]) : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  let offsetMinutes = 0;
  const zone = m[8] ?? 'Z';
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (digits.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second) + Math.round(fraction * 1000) - offsetMinutes * 60_000;
}

function text(value: string | undefined, fallback: string): string {
  const trimmed = (value ?? '').trim().toLowerCase();
  return trimmed === '' ? fallback : trimmed;
}

function count(value: number | undefined): bigint {
  return BigInt(value ?? 0);
}

/** What is wrong with a bucket's parsed `hour_start`, or undefined when it is a valid bucket start. */
function hourStartFault(hourStart: number | undefined, latest: number): string | undefined {
  if (hourStart === undefined) return 'must be an ISO 8601 date-time with a zone designator (Z or an offset)';
  if (hourStart % HALF_HOUR_MS !== 0) return 'must fall on a UTC half-hour (minute 0 or 30, seconds zero)';
  if (hourStart < EARLIEST_HOUR_START || hourStart > latest) return 'must lie between 2020-01-01 and one day from now';
  return undefined;
}

/** Checks and normalises every bucket of a request; throws one {@link InvalidInput} naming every bad field. */
export function normalizeBuckets(body: IngestRequest, now: number): Bucket[] {
  const lists: Array<[string, UsageBucket[]]> = [];
  if (body.hourly) lists.push(['hourly', body.hourly]);
  if (body.data?.hourly) lists.push(['data.hourly', body.data.hourly]);
  const latest = now + DAY_MS;
  const faults: FieldFault[] = [];
  // Buckets in upload order; an earlier duplicate (same group and project) is blanked out.
  const kept: (Bucket | undefined)[] = [];
  const positions = new GroupIndex<ByProject<{ projectKey: string; at: number }>>(); // of each group's buckets in `kept`
  for (const [base, list] of lists) {
    list.forEach((bucket, index) => {
      const hourStart = parseZonedInstant(bucket.hour_start);
      const fault = hourStartFault(hourStart, latest);
      if (fault !== undefined || hourStart === undefined) {
        // The path is only built for a bucket that fails (the common upload has none).
        faults.push({ at: { in: 'body', field: `${base}.${index}.hour_start` }, message: fault ?? '' });
        return;
      }
      const source = text(bucket.source, 'unknown');
      const model = text(bucket.model, 'unknown');
      const projectKey = (bucket.project_key ?? '').trim();
      const counts = {
        input: count(bucket.input_tokens),
        cached: count(bucket.cached_input_tokens),
        output: count(bucket.output_tokens),
        reasoning: count(bucket.reasoning_output_tokens),
        total: count(bucket.total_tokens),
      };
      const normalized: Bucket = {
        hourStart,
        source,
        model,
        projectKey,
        projectRef: bucket.project_ref?.trim() || null,
        input: counts.input,
        cached: counts.cached,
        output: counts.output,
        reasoning: counts.reasoning,
        total: counts.total,
        billable: billableTokens(source, counts),
      };
      // The last occurrence wins and keeps its own position.
      let group = positions.get(normalized);
      if (group === undefined) positions.add(normalized, (group = new ByProject()));
      const earlier = group.put({ projectKey, at: kept.length });
      if (earlier !== undefined) kept[earlier.at] = undefined;
      kept.push(normalized);
    });
  }
  const first = faults[0];
  if (first !== undefined) {
    throw new InvalidInput(faults.slice(0, 50), {
      detail: `${faults.length} bucket${faults.length === 1 ? '' : 's'} rejected; nothing was stored. First: ${fieldName(first.at)} ${first.message}`,
    });
  }
  return kept.filter((b): b is Bucket => b !== undefined);
}
