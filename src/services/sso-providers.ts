/**
 * @fileoverview The single sign-on providers, over `openid-client`: a generic OpenID Connect
 * provider (discovered from its issuer; the ID token's signature, issuer, audience, expiry and nonce
 * checked by openid-client) and GitHub (OAuth 2 with its endpoints set by hand, then its REST API's
 * `/user` and `/user/emails`). Each sends the provider state, PKCE (and a nonce) and turns the
 * callback into an {@link ExternalProfile}. Nothing here decides who the user is (sso-users.ts).
 */
import * as client from 'openid-client';

/** Who the provider says signed in. `emailVerified` only when the provider vouches for the address. */
export interface ExternalProfile {
  readonly subject: string;
  readonly email: string | undefined;
  readonly emailVerified: boolean;
  readonly displayName: string | undefined;
  readonly avatarUrl: string | undefined;
}

/** What the flow sent the provider, to check its answer against. */
export interface FlowChecks {
  readonly state: string;
  readonly nonce: string | null;
  readonly verifier: string;
}

export interface SsoProvider {
  /** The `provider` of /auth/v1/authorize and the key under `external` in /auth/v1/settings. */
  readonly id: string;
  readonly displayName: string;
  readonly usesNonce: boolean;
  authorizationUrl(state: string, nonce: string | null, verifier: string): Promise<URL>;
  /** Completes the sign-in from the callback URL (PUBLIC_URL's callback with the provider's query). */
  complete(callback: URL, checks: FlowChecks): Promise<ExternalProfile>;
}

export interface OidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly displayName: string;
}

export interface GithubSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly baseUrl: string;
  readonly apiUrl: string;
}

/** Seconds a provider has to answer one request. */
const PROVIDER_TIMEOUT_S = 10;

/** Fresh flow secrets: state, nonce and the PKCE verifier sent to the provider. */
export function newFlowSecrets(): { state: string; nonce: string; verifier: string } {
  return { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() };
}

/** An http:// provider is allowed only because the operator configured one (a local Keycloak, the tests). */
function insecureIfHttp(url: string): Array<(config: client.Configuration) => void> {
  return new URL(url).protocol === 'http:' ? [client.allowInsecureRequests] : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export class OidcProvider implements SsoProvider {
  readonly id = 'oidc';
  readonly usesNonce = true;
  readonly displayName: string;
  private config: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly redirectUri: string,
  ) {
    this.displayName = settings.displayName;
  }

  /** Discovered on first use and kept; a failed discovery is tried again next time. */
  private configuration(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    this.config ??= client
      .discovery(
        new URL(issuer),
        clientId,
        clientSecret === undefined ? undefined : { client_secret: clientSecret },
        clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret),
        { execute: [...insecureIfHttp(issuer), client.enableNonRepudiationChecks], timeout: PROVIDER_TIMEOUT_S },
      )
      .catch((error: unknown) => {
        this.config = undefined;
        throw error;
      });
    return this.config;
  }

  async authorizationUrl(state: string, nonce: string | null, verifier: string): Promise<URL> {
    return client.buildAuthorizationUrl(await this.configuration(), {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state,
      ...(nonce === null ? {} : { nonce }),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
  }

  async complete(callback: URL, checks: FlowChecks): Promise<ExternalProfile> {
    const config = await this.configuration();
    const tokens = await client.authorizationCodeGrant(config, callback, {
      expectedState: checks.state,
      ...(checks.nonce === null ? {} : { expectedNonce: checks.nonce }),
      pkceCodeVerifier: checks.verifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) throw new Error('the provider answered without an ID token');
    let source: Record<string, unknown> = claims;
    // Some providers put the e-mail address only in the UserInfo answer (checked to be the same subject).
    if (text(claims.email) === undefined && config.serverMetadata().userinfo_endpoint !== undefined)
      source = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), sub: claims.sub };
    return {
      subject: claims.sub,
      email: text(source.email)?.toLowerCase(),
      emailVerified: source.email_verified === true,
      displayName: text(source.name) ?? text(source.preferred_username),
      avatarUrl: text(source.picture),
    };
  }
}

interface GithubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

export class GithubProvider implements SsoProvider {
  readonly id = 'github';
  readonly usesNonce = false;
  readonly displayName = 'GitHub';
  private readonly config: client.Configuration;

  constructor(
    private readonly settings: GithubSettings,
    private readonly redirectUri: string,
  ) {
    const server: client.ServerMetadata = {
      issuer: settings.baseUrl,
      authorization_endpoint: `${settings.baseUrl}/login/oauth/authorize`,
      token_endpoint: `${settings.baseUrl}/login/oauth/access_token`,
    };
    this.config = new client.Configuration(
      server,
      settings.clientId,
      { client_secret: settings.clientSecret },
      client.ClientSecretPost(settings.clientSecret),
    );
    this.config.timeout = PROVIDER_TIMEOUT_S;
    for (const allow of [...insecureIfHttp(settings.baseUrl), ...insecureIfHttp(settings.apiUrl)]) allow(this.config);
  }

  async authorizationUrl(state: string, _nonce: string | null, verifier: string): Promise<URL> {
    return client.buildAuthorizationUrl(this.config, {
      redirect_uri: this.redirectUri,
      scope: 'read:user user:email',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
  }

  async complete(callback: URL, checks: FlowChecks): Promise<ExternalProfile> {
    const tokens = await client.authorizationCodeGrant(this.config, callback, {
      expectedState: checks.state,
      pkceCodeVerifier: checks.verifier,
    });
    const user = (await this.api(tokens.access_token, '/user')) as Record<string, unknown>;
    const emails = await this.api(tokens.access_token, '/user/emails');
    const id = user.id;
    if (typeof id !== 'number' && typeof id !== 'string') throw new Error('GitHub /user answered without an id');
    // Only the primary address, and only when GitHub has verified it.
    const primary = Array.isArray(emails)
      ? (emails as GithubEmail[]).find((e) => e.primary === true && typeof e.email === 'string')
      : undefined;
    return {
      subject: String(id),
      email: text(primary?.email)?.toLowerCase(),
      emailVerified: primary?.verified === true,
      displayName: text(user.name) ?? text(user.login),
      avatarUrl: text(user.avatar_url),
    };
  }

  private async api(accessToken: string, path: string): Promise<unknown> {
    const response = await client.fetchProtectedResource(
      this.config,
      accessToken,
      new URL(`${this.settings.apiUrl}${path}`),
      'GET',
      undefined,
      new Headers({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }),
    );
    if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
    return response.json();
  }
}
