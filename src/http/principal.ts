/**
 * @fileoverview Who is calling: the one place that turns a bearer token into a principal.
 * A bearer is classified once per request as service_role (constant-time key match), device or
 * share (opaque prefixed tokens, looked up by SHA-256), or user: a JWT, or a personal API token
 * (`tt_pat_…`, looked up by SHA-256), which is a user principal marked read-only (http/access.ts
 * lets it through GET and HEAD routes only).
 */
import { timingSafeEqual } from 'node:crypto';
import { API_TOKEN_PREFIX, DEVICE_TOKEN_PREFIX, SHARE_TOKEN_PREFIX, tokenDigest } from '../security/tokens.js';
import { JwtError, type JwtService } from '../security/jwt.js';

export type Role = 'user' | 'device' | 'share' | 'service_role';

export type Principal =
  | { readonly role: 'anonymous' }
  | {
      readonly role: 'user';
      readonly userId: string;
      readonly sessionId: string | undefined;
      /** A personal API token's principal: it may read (GET, HEAD), never write or issue credentials. */
      readonly readOnly: boolean;
    }
  | { readonly role: 'device'; readonly userId: string; readonly deviceId: string }
  | { readonly role: 'share'; readonly userId: string }
  | { readonly role: 'service_role' };

/** The lookups the resolver needs; implemented over the database in app.ts. */
export interface CredentialStore {
  findDeviceToken(tokenHash: string): Promise<{ userId: string; deviceId: string } | undefined>;
  findShareToken(tokenHash: string): Promise<{ userId: string } | undefined>;
  /** The personal API token behind a hash, expired or not (the resolver compares its expiry with the clock). */
  findApiToken(tokenHash: string): Promise<ApiTokenFound | undefined>;
  /** Notes that the token was just used (the store writes it at most once a minute). */
  apiTokenUsed(tokenId: string, nowMs: number): Promise<void>;
  /** Whether a local user with this id exists and is not disabled (a signed token may outlive its account). */
  userExists(userId: string): Promise<boolean>;
  /**
   * The user of a sign-in session that is still live (not signed out, not ended by refresh-token
   * reuse); undefined otherwise. A deleted account has no sessions, so this also says the user exists.
   */
  liveSessionOwner(sessionId: string): Promise<string | undefined>;
  /** Maps an external OIDC subject to a local user id, creating the user on first sight. */
  userForExternalSubject(issuer: string, sub: string, email: string | undefined): Promise<string>;
}

export interface ApiTokenFound {
  readonly tokenId: string;
  readonly userId: string;
  /** Epoch milliseconds; null: never expires. */
  readonly expiresAt: number | null;
}

export type Resolution =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly principal: Exclude<Principal, { role: 'anonymous' }> }
  | { readonly kind: 'invalid'; readonly reason: string };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Extracts the bearer token from an Authorization header; undefined when absent or empty. */
export function bearerOf(header: string | undefined): { token: string } | { malformed: true } | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ? { token: match[1] } : { malformed: true };
}

export class PrincipalResolver {
  private readonly serviceKeyDigest: Buffer;

  constructor(
    serviceRoleKey: string,
    private readonly jwt: JwtService,
    private readonly store: CredentialStore,
  ) {
    this.serviceKeyDigest = tokenDigest(serviceRoleKey);
  }

  async resolve(authorization: string | undefined, nowMs: number): Promise<Resolution> {
    const bearer = bearerOf(authorization);
    if (bearer === undefined) return { kind: 'none' };
    if ('malformed' in bearer) return { kind: 'invalid', reason: 'authorization header is not a bearer token' };
    const token = bearer.token;
    // One SHA-256 per bearer: compared in constant time with the service key's, and (hex) the stored form of opaque tokens.
    const digest = tokenDigest(token);
    if (timingSafeEqual(digest, this.serviceKeyDigest)) return { kind: 'ok', principal: { role: 'service_role' } };
    if (token.startsWith(DEVICE_TOKEN_PREFIX)) {
      const found = await this.store.findDeviceToken(digest.toString('hex'));
      return found
        ? { kind: 'ok', principal: { role: 'device', ...found } }
        : { kind: 'invalid', reason: 'unknown or revoked device token' };
    }
    if (token.startsWith(SHARE_TOKEN_PREFIX)) {
      const found = await this.store.findShareToken(digest.toString('hex'));
      return found
        ? { kind: 'ok', principal: { role: 'share', ...found } }
        : { kind: 'invalid', reason: 'unknown or revoked share token' };
    }
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const found = await this.store.findApiToken(digest.toString('hex'));
      if (!found) return { kind: 'invalid', reason: 'unknown or revoked API token' };
      // Checked against the clock on every request, so a remembered token stops at its expiry exactly.
      if (found.expiresAt !== null && found.expiresAt <= nowMs)
        return { kind: 'invalid', reason: 'the API token has expired' };
      await this.store.apiTokenUsed(found.tokenId, nowMs);
      return { kind: 'ok', principal: { role: 'user', userId: found.userId, sessionId: undefined, readOnly: true } };
    }
    if (!JWT_SHAPE.test(token)) return { kind: 'invalid', reason: 'unrecognised token' };
    try {
      const verified = await this.jwt.verify(token, nowMs);
      if (verified.externalIssuer !== undefined) {
        const userId = await this.store.userForExternalSubject(verified.externalIssuer, verified.sub, verified.email);
        if (!(await this.store.userExists(userId))) return { kind: 'invalid', reason: 'the account is disabled' };
        return { kind: 'ok', principal: { role: 'user', userId, sessionId: undefined, readOnly: false } };
      }
      // A token of an ended session stops working (within the session cache's few seconds), not at its
      // exp; one whose subject names no user (a deleted account) is as unknown as a revoked device token.
      if (verified.sessionId !== undefined) {
        if ((await this.store.liveSessionOwner(verified.sessionId)) !== verified.sub)
          return { kind: 'invalid', reason: 'the session has ended' };
      } else if (!(await this.store.userExists(verified.sub))) {
        return { kind: 'invalid', reason: 'the token names no user' };
      }
      return {
        kind: 'ok',
        principal: { role: 'user', userId: verified.sub, sessionId: verified.sessionId, readOnly: false },
      };
    } catch (error) {
      if (error instanceof JwtError) return { kind: 'invalid', reason: error.message };
      throw error;
    }
  }
}
