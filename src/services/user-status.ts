/**
 * @fileoverview getUserStatus: the account (its creation time), its pro status, its devices'
 * subscriptions, its installed devices, and how much of MAX_STORED_BUCKETS_PER_USER its stored
 * raw buckets use (the dashboard shows the share).
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { installSummary, listSubscriptions, storedBucketCount, userCreatedAt } from '../db/queries/analytics.js';
import { listActiveEntitlements } from '../db/queries/entitlements.js';
import type { UserStatusBody } from '../schemas/usage.js';
import { timedQuery } from './request-timer.js';

/** A pro grant as the user status reports it. */
export interface ProGrant {
  readonly source: string;
  readonly effectiveFrom: number;
  readonly effectiveTo: number | null;
}

export interface UserStatusDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** Active pro grants of a user at an instant; defaults to the `entitlements` table ({@link activeProGrants}). */
  readonly activeProGrants?: (userId: string, nowMs: number) => Promise<readonly ProGrant[]>;
  /** MAX_STORED_BUCKETS_PER_USER. */
  readonly maxStoredBuckets: number;
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export async function userStatusBody(deps: UserStatusDeps, userId: string): Promise<UserStatusBody> {
  const { db } = deps;
  const now = deps.clock.now();
  const asOf = new Date(now).toISOString();
  const grantsOf = deps.activeProGrants ?? ((id: string, at: number) => activeProGrants(db, id, at));
  const [createdAt, grants, subs, install, stored] = await Promise.all([
    timedQuery(() => userCreatedAt(db.kysely, userId)),
    timedQuery(() => grantsOf(userId, now)),
    timedQuery(() => listSubscriptions(db.kysely, userId)),
    timedQuery(() => installSummary(db.kysely, userId)),
    timedQuery(() => storedBucketCount(db.kysely, userId)),
  ]);
  const sources = [...new Set(grants.map((g) => g.source))].sort();
  const ends = grants.map((g) => g.effectiveTo);
  const expiresAt = grants.length === 0 || ends.includes(null) ? null : Math.max(...(ends as number[]));
  return {
    user_id: userId,
    created_at: createdAt === undefined ? null : new Date(createdAt).toISOString(),
    pro: { active: grants.length > 0, sources, expires_at: iso(expiresAt), as_of: asOf },
    subscriptions: {
      as_of: asOf,
      items: subs.map((s) => ({
        tool: s.tool,
        provider: s.provider,
        product: s.product,
        plan_type: s.planType,
        rate_limit_tier: s.rateLimitTier,
        device_id: s.deviceId,
        observed_at: new Date(s.updatedAt).toISOString(),
        details: parseDetails(s.details),
      })),
    },
    install: {
      as_of: asOf,
      has_active_device: install.activeDevices > 0,
      active_devices: install.activeDevices,
      last_upload_at: iso(install.lastSeenAt),
      last_sync_at: iso(install.lastSyncAt),
    },
    storage: { stored_buckets: stored, max_stored_buckets: deps.maxStoredBuckets },
  };
}

/** Pro grants in force: the operator's entitlements (admin command line), not revoked, not expired. */
export async function activeProGrants(db: Db, userId: string, nowMs: number): Promise<ProGrant[]> {
  const rows = await listActiveEntitlements(db.kysely, userId, nowMs);
  return rows.map((e) => ({ source: e.source, effectiveFrom: e.grantedAt, effectiveTo: e.expiresAt }));
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
