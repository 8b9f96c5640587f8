/**
 * @fileoverview User access tokens: HS256 JWTs signed with JWT_SECRET (GoTrue-shaped claims),
 * and optionally JWTs of an external OpenID Connect provider checked against its JWKS.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

export interface AccessClaims {
  sub: string;
  email: string | null;
  sessionId: string;
}

export interface VerifiedJwt {
  sub: string;
  /** Set for tokens of an external provider: the issuer the subject belongs to. */
  externalIssuer?: string;
  email?: string;
}

export class JwtError extends Error {
  override name = 'JwtError';
}

const AUDIENCE = 'authenticated';
const VERIFIED_CACHE_MS = 30_000;
const VERIFIED_CACHE_SIZE = 10_000;

export interface ExternalJwtOptions {
  jwksUrl: string;
  /** Required: without them a token the provider minted for any other application would pass. */
  issuer: string;
  audience: string;
  /** The signature algorithms accepted (asymmetric only; config.ts checks). */
  algorithms: readonly string[];
}

/** Signs and verifies user access tokens. */
export class JwtService {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, { result: VerifiedJwt & { sessionId?: string }; until: number }>();
  private readonly external: { jwks: ReturnType<typeof createRemoteJWKSet>; options: ExternalJwtOptions } | undefined;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    external?: ExternalJwtOptions,
  ) {
    this.key = new TextEncoder().encode(secret);
    this.external = external
      ? { jwks: createRemoteJWKSet(new URL(external.jwksUrl), { timeoutDuration: 10_000 }), options: external }
      : undefined;
  }

  get accessTokenTtlSeconds(): number {
    return this.ttlSeconds;
  }

  async sign(claims: AccessClaims, nowMs: number): Promise<{ token: string; expiresAt: number }> {
    const iat = Math.floor(nowMs / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({
      role: 'authenticated',
      email: claims.email ?? undefined,
      session_id: claims.sessionId,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: exp };
  }

  /**
   * Verifies a user JWT at `nowMs`; throws JwtError with a short reason. A token that verified is
   * remembered for up to 30 s (never past its `exp`), so a dashboard's burst of reads checks the
   * signature once; failures are never remembered.
   */
  async verify(token: string, nowMs: number): Promise<VerifiedJwt & { sessionId?: string }> {
    const hit = this.verified.get(token);
    if (hit && hit.until > nowMs) return hit.result;
    if (hit) this.verified.delete(token);
    const result = await this.verifyUncached(token, nowMs);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, { result, until: Math.min(nowMs + VERIFIED_CACHE_MS, result.expiresAtMs) });
    return result;
  }

  private async verifyUncached(
    token: string,
    nowMs: number,
  ): Promise<VerifiedJwt & { sessionId?: string; expiresAtMs: number }> {
    const currentDate = new Date(nowMs);
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        currentDate,
        requiredClaims: ['exp'],
      });
      return { sub: requireSub(payload), ...sessionOf(payload), expiresAtMs: expiryOf(payload) };
    } catch (error) {
      if (
        !this.external ||
        !(error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JOSEAlgNotAllowed)
      ) {
        throw new JwtError(describe(error));
      }
    }
    const { jwks, options } = this.external;
    try {
      const { payload } = await jwtVerify(token, jwks, {
        currentDate,
        requiredClaims: ['exp'],
        issuer: options.issuer,
        audience: options.audience,
        algorithms: [...options.algorithms],
      });
      return {
        sub: requireSub(payload),
        externalIssuer: payload.iss ?? options.jwksUrl,
        expiresAtMs: expiryOf(payload),
        ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
      };
    } catch (error) {
      throw new JwtError(describe(error));
    }
  }
}

function expiryOf(payload: JWTPayload): number {
  return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
}

function requireSub(payload: JWTPayload): string {
  if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new JwtError('token has no subject');
  return payload.sub;
}

function sessionOf(payload: JWTPayload): { sessionId?: string } {
  return typeof payload.session_id === 'string' ? { sessionId: payload.session_id } : {};
}

function describe(error: unknown): string {
  if (error instanceof JwtError) return error.message;
  if (error instanceof joseErrors.JWTExpired) return 'token expired';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'invalid signature';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `invalid claim ${error.claim}`;
  if (error instanceof joseErrors.JOSEError) return 'malformed token';
  return 'invalid token';
}
