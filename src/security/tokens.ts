/**
 * @fileoverview Opaque credentials: generation (256 random bits behind a readable prefix),
 * storage form (SHA-256 only) and constant-time comparison.
 */
import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_TOKEN_PREFIX = 'tt_dev_';
export const SHARE_TOKEN_PREFIX = 'tt_share_';
/** Read-only personal API tokens (docs/api-tokens.md). */
export const API_TOKEN_PREFIX = 'tt_pat_';

/** A fresh token: prefix + 43 base64url characters (256 bits from the OS CSPRNG). */
export function generateToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** SHA-256 of a token: hex-encoded it is the only form in which a token is stored. One-shot (no Hash object): runs for every bearer. */
export function tokenDigest(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

/** The only form in which a token is stored. */
export function hashToken(token: string): string {
  return tokenDigest(token).toString('hex');
}

/** HMAC-SHA256 under a server key, base64url; used to derive replayable tokens without storing them. */
export function hmac(key: string, ...parts: string[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part).update('\u0000');
  return mac.digest('base64url');
}

/** Compares two secrets in time independent of where they differ (lengths are hashed away). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(tokenDigest(a), tokenDigest(b));
}
