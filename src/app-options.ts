/**
 * @fileoverview Options of the app's parts read from the configuration: Fastify's trust-proxy rule
 * and the external OIDC provider's JWT settings (used by app.ts only).
 */
import type { Config } from './config.js';
import type { ExternalJwtOptions } from './security/jwt.js';

/** The external OIDC provider's settings, when one is configured (config.ts guarantees issuer and audience with it). */
export function externalJwt(auth: Config['auth']): ExternalJwtOptions | undefined {
  const { jwksUrl, issuer, audience, algorithms } = auth;
  if (jwksUrl === undefined) return undefined;
  if (issuer === undefined || audience === undefined)
    throw new Error('AUTH_JWKS_URL needs AUTH_ISSUER and AUTH_AUDIENCE');
  return { jwksUrl, issuer, audience, algorithms };
}

/** Fastify's form of TRUST_PROXY: the client is the address the last trusted proxy saw. */
export function trustProxyOption(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}
