/**
 * @fileoverview Rows the ingest writers need, written straight to the database: a user, a device,
 * and a normalised bucket, for tests that drive a writer without the HTTP edge.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import type { Db } from '../../src/db/connect.js';

/** Inserts a user with no sign-in of any kind, unless `over` gives one (an email, an external id). */
export async function seedUser(
  db: Db,
  id: string,
  now: number,
  over: { readonly email?: string; readonly external_id?: string } = {},
): Promise<void> {
  await db.kysely
    .insertInto('users')
    .values({
      id,
      email: null,
      password_hash: null,
      display_name: null,
      avatar_url: null,
      external_id: null,
      created_at: now,
      updated_at: now,
      ...over,
    })
    .execute();
}

/** Inserts a device of `userId`, never seen. */
export async function seedDevice(db: Db, id: string, userId: string, now: number): Promise<void> {
  await db.kysely
    .insertInto('devices')
    .values({
      id,
      user_id: userId,
      name: id,
      platform: 'test',
      created_at: now,
      last_seen_at: null,
      last_sync_at: null,
      revoked_at: null,
    })
    .execute();
}

/** A bucket of `tokens` input tokens, no project: 2026-11-01 10:00Z, `claude`, unless `over` says otherwise. */
export function seedBucket(tokens: bigint, over: Partial<Bucket> = {}): Bucket {
  return {
    hourStart: Date.UTC(2026, 10, 1, 10),
    source: 'claude',
    model: 'claude-sonnet-4-5',
    projectKey: '',
    projectRef: null,
    input: tokens,
    cached: 0n,
    output: 0n,
    reasoning: 0n,
    total: tokens,
    billable: tokens,
    ...over,
  };
}
