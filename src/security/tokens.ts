/**
 * @fileoverview Opaque credentials: generation (256 random bits behind a readable prefix),
 * storage form (SHA-256 only) and constant-time comparison.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_TOKEN_PREFIX = 'tt_dev_';
export const SHARE_TOKEN_PREFIX = 'tt_share_';

/** A fresh token: prefix + 43 base64url characters (256 bits from the OS CSPRNG). */
export function generateToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** The only form in which a token is stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** HMAC-SHA256 under a server key, base64url; used to derive replayable tokens without storing them. */
export function hmac(key: string, ...parts: string[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part).update('\u0000');
  return mac.digest('base64url');
}

/** Compares two secrets in time independent of where they differ (lengths are hashed away). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
