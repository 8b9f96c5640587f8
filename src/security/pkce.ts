/**
 * @fileoverview PKCE (RFC 7636) as the sign-in API's single sign-on takes it from its clients:
 * a challenge's shape, and whether a verifier answers it (`s256`: base64url SHA-256; `plain`, which
 * auth-js sends only where the browser has no WebCrypto, as GoTrue accepts it). Compared in
 * constant time.
 */
import { hash } from 'node:crypto';
import { safeEqual } from './tokens.js';

export type PkceMethod = 's256' | 'plain';

/** RFC 7636's alphabet and lengths, for challenges and verifiers alike. */
const PKCE_TEXT = /^[A-Za-z0-9._~-]{43,128}$/;

/** The method named by a `code_challenge_method` (any case), or undefined when it is neither. */
export function pkceMethod(raw: string): PkceMethod | undefined {
  const lower = raw.toLowerCase();
  return lower === 's256' || lower === 'plain' ? lower : undefined;
}

export function isPkceText(value: string): boolean {
  return PKCE_TEXT.test(value);
}

/** True when `verifier` is the one the `challenge` was made from. */
export function pkceMatches(verifier: string, challenge: string, method: PkceMethod): boolean {
  if (!isPkceText(verifier)) return false;
  const expected = method === 's256' ? hash('sha256', verifier, 'base64url') : verifier;
  return safeEqual(expected, challenge);
}
