/** @fileoverview Normalises uploaded device_subscriptions (camelCase or snake_case fields). */
import type { DeviceSubscription } from '../../schemas/ingest.js';

export interface NormalizedSubscription {
  tool: string | null;
  provider: string | null;
  product: string | null;
  planType: string | null;
  rateLimitTier: string | null;
  details: string;
}

function field(source: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = source[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 128);
  }
  return null;
}

export function normalizeSubscriptions(list: readonly DeviceSubscription[]): NormalizedSubscription[] {
  return list.map((item) => {
    const raw = item as Record<string, unknown>;
    return {
      tool: field(raw, 'tool')?.toLowerCase() ?? null,
      provider: field(raw, 'provider')?.toLowerCase() ?? null,
      product: field(raw, 'product'),
      planType: field(raw, 'planType', 'plan_type'),
      rateLimitTier: field(raw, 'rateLimitTier', 'rate_limit_tier'),
      details: JSON.stringify(raw).slice(0, 4096),
    };
  });
}
