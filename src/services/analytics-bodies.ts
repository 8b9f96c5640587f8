/**
 * @fileoverview What the analytics use cases answer, as the routes serialise it: the query they
 * take (text as it arrives) and each operation's body (docs/interface.md, "Analytics").
 */
import type { LocalDate } from '../domain/calendar.js';
import type { DayRowWire, HalfHourRowWire, MonthRowWire } from '../domain/fold.js';
import type { PricingSummary, TokenTotalsWithCostWire } from '../pricing/index.js';

/** Query parameters shared by the usage reads (all optional text, as they arrive). */
export interface UsageQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly day?: string | undefined;
  readonly source?: string | undefined;
  readonly model?: string | undefined;
  readonly tz?: string | undefined;
  readonly tz_offset_minutes?: string | number | undefined;
  readonly months?: string | number | undefined;
  readonly weeks?: string | number | undefined;
  readonly week_starts_on?: string | undefined;
  readonly limit?: string | number | undefined;
  readonly debug?: string | undefined;
}

export interface SummaryBody {
  from: LocalDate;
  to: LocalDate;
  days: number;
  model_id: string | null;
  model: string | null;
  totals: TokenTotalsWithCostWire;
  pricing: PricingSummary;
}

export interface DailyBody {
  from: LocalDate;
  to: LocalDate;
  days: number;
  model_id: string | null;
  model: string | null;
  data: DayRowWire[];
  summary: { totals: TokenTotalsWithCostWire; pricing: PricingSummary };
}

export interface HourlyBody {
  day: LocalDate;
  data: HalfHourRowWire[];
  sync: { last_sync_at: string | null; min_interval_minutes: number };
}

export interface MonthlyBody {
  from: LocalDate;
  to: LocalDate;
  months: number;
  data: MonthRowWire[];
}

export interface BreakdownBody {
  from: LocalDate;
  to: LocalDate;
  days: number;
  sources: { source: string; totals: TokenTotalsWithCostWire; models: { model_id: string; model: string; priced_as?: string; totals: TokenTotalsWithCostWire }[] }[];
  pricing: PricingSummary;
}

export interface ProjectSummaryBody {
  from: null;
  to: null;
  all_time: true;
  generated_at: string;
  entries: { project_key: string; project_ref: string; total_tokens: string; billable_total_tokens: string }[];
}

/** A pro grant as the user status reports it. */
export interface ProGrant {
  readonly source: string;
  readonly effectiveFrom: number;
  readonly effectiveTo: number | null;
}

export interface UserStatusBody {
  user_id: string;
  created_at: string | null;
  pro: { active: boolean; sources: string[]; expires_at: string | null; as_of: string };
  subscriptions: {
    as_of: string;
    items: {
      tool: string | null;
      provider: string | null;
      product: string | null;
      plan_type: string | null;
      rate_limit_tier: string | null;
      device_id: string;
      observed_at: string;
      details: Record<string, unknown>;
    }[];
  };
  install: {
    as_of: string;
    has_active_device: boolean;
    active_devices: number;
    last_upload_at: string | null;
    last_sync_at: string | null;
  };
}
