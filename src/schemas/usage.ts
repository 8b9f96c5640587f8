/**
 * @fileoverview Request and response schemas of the analytics reads. Every response field is
 * declared (Fastify's serializer drops undeclared ones); open objects are declared open.
 * Query parameters are declared with their types; those the domain validates are read from text
 * by its parsers (schemas/text-params.ts), which name the parameter at fault. Text parameters are
 * read in the order declared here, the order the use cases check them in: the zone first, then
 * the view's own parameters, `to` before `from`.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { parseWeeks, parseWeekStartsOn, WEEKS_LIMITS } from '../domain/heatmap.js';
import { parseProjectLimit, PROJECT_LIMITS } from '../domain/project-limit.js';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, MONTHS_LIMITS, parseDateParam, parseMonths } from '../domain/ranges.js';
import { MAX_OFFSET_MINUTES, MIN_OFFSET_MINUTES, parseOffsetParam, parseZoneParam } from '../domain/zones.js';
import { DateTime } from './common.js';
import { textParam } from './text-params.js';

const open = { additionalProperties: true } as const;
const DateOut = Type.String({ format: 'date' });

/** Longest text accepted for a number or an enum, and for a date. */
const SHORT_TEXT = 8;
const DATE_TEXT = 32;
const TZ_TEXT = 64;

const date = (param: 'from' | 'to' | 'day', description: string) =>
  textParam(Type.String({ format: 'date', description }), DATE_TEXT, (text) => parseDateParam(text, param));
const whole = (
  limits: { readonly min: number; readonly max: number; readonly default: number },
  description: string,
  parse: (text: string) => number,
) =>
  textParam(
    Type.Integer({ minimum: limits.min, maximum: limits.max, default: limits.default, description }),
    SHORT_TEXT,
    parse,
  );

const zoneParams = {
  tz_offset_minutes: textParam(
    Type.Integer({ minimum: MIN_OFFSET_MINUTES, maximum: MAX_OFFSET_MINUTES, description: 'minutes east of UTC' }),
    SHORT_TEXT,
    parseOffsetParam,
  ),
  tz: textParam(
    Type.String({ maxLength: TZ_TEXT, description: 'IANA time-zone name; wins over tz_offset_minutes' }),
    TZ_TEXT,
    parseZoneParam,
  ),
};
const filterParams = {
  source: Type.Optional(Type.String({ maxLength: 64, description: 'source tool, e.g. codex' })),
  model: Type.Optional(Type.String({ maxLength: 128, description: 'raw model name or canonical model_id' })),
  device_id: Type.Optional(
    Type.String({
      maxLength: 64,
      description: "one of the caller's devices (revoked ones too): that device's usage only",
    }),
  ),
};
const debugParam = { debug: Type.Optional(Type.Literal('1', { description: 'adds timing information' })) };
const rangeParams = {
  to: date('to', 'last local day, inclusive (default: today in the zone)'),
  from: date(
    'from',
    `first local day (default: to − ${DEFAULT_RANGE_DAYS - 1} days); at most ${MAX_RANGE_DAYS} days up to to`,
  ),
};

export const SummaryQuery = Type.Object({ ...zoneParams, ...rangeParams, ...filterParams, ...debugParam });
export const DailyQuery = SummaryQuery;
export const HourlyQuery = Type.Object({
  ...zoneParams,
  day: date('day', 'the local day (default: today in the zone)'),
  ...filterParams,
  ...debugParam,
});
export const MonthlyQuery = Type.Object({
  ...zoneParams,
  months: whole(MONTHS_LIMITS, 'calendar months ending with the month of to', parseMonths),
  to: rangeParams.to,
  ...filterParams,
  ...debugParam,
});
export const HeatmapQuery = Type.Object({
  ...zoneParams,
  weeks: whole(WEEKS_LIMITS, 'weeks in the grid', parseWeeks),
  week_starts_on: textParam(
    Type.Union([Type.Literal('sun'), Type.Literal('mon')], {
      default: 'sun',
      description: 'first day of a week (case-insensitive)',
    }),
    SHORT_TEXT,
    parseWeekStartsOn,
  ),
  to: rangeParams.to,
  ...filterParams,
  ...debugParam,
});
export const BreakdownQuery = Type.Object({
  ...zoneParams,
  ...rangeParams,
  source: filterParams.source,
  device_id: filterParams.device_id,
  ...debugParam,
});
export const ProjectSummaryQuery = Type.Object({
  limit: whole(PROJECT_LIMITS, 'how many of the top projects', parseProjectLimit),
  source: filterParams.source,
  cost: Type.Optional(
    Type.Literal('1', { description: "adds each project's total_cost_usd (reads the raw buckets: costlier)" }),
  ),
  ...debugParam,
});
export const UserStatusQuery = Type.Object({ ...debugParam });

export type SummaryQuery = Static<typeof SummaryQuery>;
export type DailyQuery = Static<typeof DailyQuery>;
export type HourlyQuery = Static<typeof HourlyQuery>;
export type MonthlyQuery = Static<typeof MonthlyQuery>;
export type HeatmapQuery = Static<typeof HeatmapQuery>;
export type BreakdownQuery = Static<typeof BreakdownQuery>;
export type ProjectSummaryQuery = Static<typeof ProjectSummaryQuery>;

const tokenFields = {
  total_tokens: Type.String(),
  billable_total_tokens: Type.String(),
  input_tokens: Type.String(),
  cached_input_tokens: Type.String(),
  output_tokens: Type.String(),
  reasoning_output_tokens: Type.String(),
};

export const TokenCountsWithCost = Type.Object(
  { ...tokenFields, total_cost_usd: Type.String() },
  { ...open, description: 'exact decimal strings; cost in USD with 6 places' },
);

export const Pricing = Type.Object(
  {
    model: Type.Union([Type.String(), Type.Null()]),
    pricing_mode: Type.String({ description: 'overlap, add or mixed' }),
    source: Type.String(),
    effective_from: DateOut,
    data_effective_from: DateOut,
    default_profile: Type.Boolean(),
    default_model: Type.String(),
    unpriced_models: Type.Array(Type.String()),
  },
  open,
);

export const Debug = Type.Object(
  {
    request_id: Type.String(),
    status: Type.Integer(),
    query_ms: Type.Number(),
    total_ms: Type.Number(),
    queries: Type.Integer(),
    slow_query: Type.Boolean(),
    slow_threshold_ms: Type.Integer(),
  },
  open,
);
export type Debug = Static<typeof Debug>;
const debugOut = { debug: Type.Optional(Debug) };
/** What a use case answers: the operation's response without the `debug` block the route adds. */
type Body<T extends TSchema> = Omit<Static<T>, 'debug'>;

const modelOut = {
  model_id: Type.Union([Type.String(), Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()]),
};

export const SummaryResponse = Type.Object(
  {
    from: DateOut,
    to: DateOut,
    days: Type.Integer(),
    ...modelOut,
    totals: TokenCountsWithCost,
    pricing: Pricing,
    ...debugOut,
  },
  open,
);
export type SummaryBody = Body<typeof SummaryResponse>;

export const DailyResponse = Type.Object(
  {
    from: DateOut,
    to: DateOut,
    days: Type.Integer(),
    ...modelOut,
    data: Type.Array(Type.Object({ day: DateOut, ...tokenFields }, open)),
    summary: Type.Object({ totals: TokenCountsWithCost, pricing: Pricing }, open),
    ...debugOut,
  },
  open,
);
export type DailyBody = Body<typeof DailyResponse>;

export const HourlyResponse = Type.Object(
  {
    day: DateOut,
    data: Type.Array(
      Type.Object(
        {
          hour: Type.String({ description: 'local start with its offset, e.g. 2026-03-08T01:30:00-05:00' }),
          hour_start: Type.String({ description: 'UTC start of the half-hour bucket' }),
          ...tokenFields,
        },
        open,
      ),
    ),
    sync: Type.Object(
      { last_sync_at: Type.Union([DateTime, Type.Null()]), min_interval_minutes: Type.Integer() },
      open,
    ),
    ...debugOut,
  },
  open,
);
export type HourlyBody = Body<typeof HourlyResponse>;

export const MonthlyResponse = Type.Object(
  {
    from: DateOut,
    to: DateOut,
    months: Type.Integer(),
    data: Type.Array(Type.Object({ month: Type.String({ description: 'YYYY-MM' }), ...tokenFields }, open)),
    ...debugOut,
  },
  open,
);
export type MonthlyBody = Body<typeof MonthlyResponse>;

const HeatmapCell = Type.Object(
  { day: DateOut, value: Type.String(), level: Type.Integer({ minimum: 0, maximum: 4 }) },
  open,
);
/**
 * A cell or null (days after `to`), declared as a type array rather than `anyOf`: the serializer
 * then writes cells directly instead of validating each one to pick a branch, as fast as
 * JSON.stringify (docs/analytics.md). Same OpenAPI 3.1 meaning.
 */
const HeatmapCellOrNull = Type.Unsafe<Static<typeof HeatmapCell> | null>({ ...HeatmapCell, type: ['object', 'null'] });

export const HeatmapResponse = Type.Object(
  {
    from: DateOut,
    to: DateOut,
    week_starts_on: Type.String(),
    thresholds: Type.Object({ t1: Type.String(), t2: Type.String(), t3: Type.String() }, open),
    active_days: Type.Integer(),
    streak_days: Type.Integer(),
    weeks: Type.Array(Type.Array(HeatmapCellOrNull)),
    ...debugOut,
  },
  open,
);
export type HeatmapBody = Body<typeof HeatmapResponse>;

export const BreakdownResponse = Type.Object(
  {
    from: DateOut,
    to: DateOut,
    days: Type.Integer(),
    sources: Type.Array(
      Type.Object(
        {
          source: Type.String(),
          totals: TokenCountsWithCost,
          models: Type.Array(
            Type.Object(
              {
                model_id: Type.String(),
                model: Type.String(),
                priced_as: Type.Optional(
                  Type.String({
                    description: 'the model whose price prices this one, when it is not its own (docs/pricing.md)',
                  }),
                ),
                totals: TokenCountsWithCost,
              },
              open,
            ),
          ),
        },
        open,
      ),
    ),
    pricing: Pricing,
    ...debugOut,
  },
  open,
);
export type BreakdownBody = Body<typeof BreakdownResponse>;

export const ProjectSummaryResponse = Type.Object(
  {
    from: Type.Null(),
    to: Type.Null(),
    all_time: Type.Boolean(),
    generated_at: DateTime,
    entries: Type.Array(
      Type.Object(
        {
          project_key: Type.String(),
          project_ref: Type.String(),
          total_tokens: Type.String(),
          billable_total_tokens: Type.String(),
          total_cost_usd: Type.Optional(Type.String()),
        },
        open,
      ),
    ),
    ...debugOut,
  },
  open,
);
export type ProjectSummaryBody = Body<typeof ProjectSummaryResponse>;

const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const NullableText = Type.Union([Type.String(), Type.Null()]);

export const UserStatusResponse = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    created_at: NullableDateTime,
    pro: Type.Object(
      { active: Type.Boolean(), sources: Type.Array(Type.String()), expires_at: NullableDateTime, as_of: DateTime },
      open,
    ),
    subscriptions: Type.Object(
      {
        as_of: DateTime,
        items: Type.Array(
          Type.Object(
            {
              tool: NullableText,
              provider: NullableText,
              product: NullableText,
              plan_type: NullableText,
              rate_limit_tier: NullableText,
              device_id: Type.String(),
              observed_at: DateTime,
              details: Type.Object({}, open),
            },
            open,
          ),
        ),
      },
      open,
    ),
    install: Type.Object(
      {
        as_of: DateTime,
        has_active_device: Type.Boolean(),
        active_devices: Type.Integer(),
        last_upload_at: NullableDateTime,
        last_sync_at: NullableDateTime,
      },
      open,
    ),
    /** An addition to the interface: the account's stored raw buckets and MAX_STORED_BUCKETS_PER_USER. */
    storage: Type.Optional(Type.Object({ stored_buckets: Type.Integer(), max_stored_buckets: Type.Integer() }, open)),
    ...debugOut,
  },
  open,
);
export type UserStatusBody = Body<typeof UserStatusResponse>;
