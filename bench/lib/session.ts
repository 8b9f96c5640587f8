/**
 * @fileoverview A signed-in user for benchmarks that seed the database directly: an access token is
 * honoured only while its session lives, so the seed stores the session (a refresh-token row) and
 * the token names it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/connect.js';
import { insertRefreshToken } from '../../src/db/queries/users.js';
import { JwtService } from '../../src/security/jwt.js';
import { BENCH_JWT_SECRET } from './processes.js';

const DAY_MS = 86_400_000;

/** Stores a day-long session for `userId`; returns its id. */
export async function storeBenchSession(db: Db, userId: string, now: number): Promise<string> {
  const sessionId = randomUUID();
  await insertRefreshToken(db.kysely, {
    token_hash: randomBytes(32).toString('hex'),
    user_id: userId,
    session_id: sessionId,
    created_at: now,
    expires_at: now + DAY_MS,
  });
  return sessionId;
}

/** An access token of the session {@link storeBenchSession} stored. */
export async function benchAccessToken(userId: string, sessionId: string, now: number): Promise<string> {
  return (await new JwtService(BENCH_JWT_SECRET, DAY_MS / 1000).sign({ sub: userId, email: null, sessionId }, now))
    .token;
}
