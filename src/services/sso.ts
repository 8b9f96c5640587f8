/**
 * @fileoverview Single sign-on as GoTrue does it, behind /auth/v1 (docs/interface.md, "Single
 * sign-on"): `authorize` stores the flow (state hashed, nonce, the PKCE verifier sent to the
 * provider, the client's own challenge, where to return; 10 minutes, single use) and sends the
 * browser to the provider; `callback` takes the flow by its state, completes with the provider,
 * finds the user (sso-users.ts) and returns to `redirect_to` with a one-time code (PKCE: stored
 * hashed, bound to the client's challenge, 5 minutes) or the session in the fragment (implicit);
 * `exchange` trades the code and its verifier for the session. `redirect_to` must be on PUBLIC_URL's
 * origin or an allow-listed one: nothing here redirects anywhere else.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { consumeSsoCode, findSsoCode, insertSsoCode, insertSsoFlow, takeSsoFlow } from '../db/queries/sso.js';
import type { SsoFlowRow } from '../db/schema.js';
import { DomainError, InvalidInput, NotFound, Refused } from '../domain/errors.js';
import { isPkceText, pkceMatches, pkceMethod, type PkceMethod } from '../security/pkce.js';
import { generateToken, hashToken } from '../security/tokens.js';
import type { AccountService, Session } from './accounts.js';
import {
  GithubProvider,
  newFlowSecrets,
  OidcProvider,
  type GithubSettings,
  type OidcSettings,
  type SsoProvider,
} from './sso-providers.js';
import { userForSignIn } from './sso-users.js';

export const SSO_FLOW_TTL_MS = 10 * 60_000;
export const SSO_CODE_TTL_MS = 5 * 60_000;

export interface SsoSettings {
  readonly publicUrl: string;
  readonly sso: {
    readonly oidc: OidcSettings | undefined;
    readonly github: GithubSettings | undefined;
    readonly redirectAllowList: readonly string[];
  };
}

export interface AuthorizeRequest {
  provider: string;
  redirectTo: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
}

/** Where the callback sends the browser, or the page it shows when there is nowhere safe to send it. */
export type CallbackOutcome =
  | { readonly kind: 'redirect'; readonly location: string; readonly failure?: string }
  | { readonly kind: 'page'; readonly status: number; readonly message: string };

const SIGN_IN_FAILED = 'The sign-in could not be completed. Start again from the sign-in page.';

function invalid(field: string, message: string, reason = 'validation_failed'): InvalidInput {
  return new InvalidInput([{ at: { in: 'querystring', field }, message }], { reason });
}

export class SsoService {
  private readonly providers = new Map<string, SsoProvider>();
  private readonly allowedOrigins: Set<string>;
  private readonly callbackUrl: string;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly accounts: AccountService,
    private readonly settings: SsoSettings,
  ) {
    this.callbackUrl = `${settings.publicUrl}/auth/v1/callback`;
    const { oidc, github } = settings.sso;
    for (const provider of [
      oidc && new OidcProvider(oidc, this.callbackUrl),
      github && new GithubProvider(github, this.callbackUrl),
    ])
      if (provider) this.providers.set(provider.id, provider);
    this.allowedOrigins = new Set([new URL(settings.publicUrl).origin, ...settings.sso.redirectAllowList]);
  }

  /** The configured providers, `external` as GoTrue lists them plus their button texts. */
  listProviders(): { external: Record<string, boolean>; names: Record<string, string> } {
    const external: Record<string, boolean> = {};
    const names: Record<string, string> = {};
    for (const provider of this.providers.values()) {
      external[provider.id] = true;
      names[provider.id] = provider.displayName;
    }
    return { external, names };
  }

  /** Where a sign-in returns: `redirect_to` when it is on an allowed origin, the dashboard without one. */
  private checkRedirect(raw: string | undefined): string {
    if (raw === undefined || raw === '') return `${this.settings.publicUrl}/`;
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.username !== '' || url.password !== '' || !this.allowedOrigins.has(url.origin))
      throw invalid('redirect_to', "must be a URL on this server's origin or one of AUTH_REDIRECT_ALLOW_LIST");
    return url.href;
  }

  /** Starts a sign-in: the provider's authorization URL to send the browser to. */
  async authorize(request: AuthorizeRequest): Promise<string> {
    const provider = this.providers.get(request.provider);
    if (provider === undefined)
      throw invalid('provider', `Unsupported provider: "${request.provider}" is not enabled on this server`);
    const redirectTo = this.checkRedirect(request.redirectTo);
    const { codeChallenge, codeChallengeMethod } = request;
    let method: PkceMethod | undefined;
    if (codeChallenge !== undefined || codeChallengeMethod !== undefined) {
      method = pkceMethod(codeChallengeMethod ?? '');
      if (method === undefined) throw invalid('code_challenge_method', 'must be s256 or plain');
      if (codeChallenge === undefined || !isPkceText(codeChallenge))
        throw invalid('code_challenge', 'must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~"');
    }
    const secrets = newFlowSecrets();
    const nonce = provider.usesNonce ? secrets.nonce : null;
    const url = await provider.authorizationUrl(secrets.state, nonce, secrets.verifier);
    const now = this.clock.now();
    await insertSsoFlow(
      this.db.kysely,
      {
        state_hash: hashToken(secrets.state),
        provider: provider.id,
        nonce,
        provider_verifier: secrets.verifier,
        code_challenge: codeChallenge ?? null,
        code_challenge_method: method ?? null,
        redirect_to: redirectTo,
        created_at: now,
        expires_at: now + SSO_FLOW_TTL_MS,
      },
      now,
    );
    return url.href;
  }

  /** The provider's answer (`query`: the callback's query string, as received). */
  async callback(query: URLSearchParams): Promise<CallbackOutcome> {
    const state = query.get('state');
    const flow = state ? await takeSsoFlow(this.db.kysely, hashToken(state)) : undefined;
    if (state === null || flow === undefined)
      return {
        kind: 'page',
        status: 400,
        message: `This sign-in is not known here: it was already used, it expired or it was not started on this server. ${SIGN_IN_FAILED}`,
      };
    const fail = (error: string, code: string, description: string, failure?: string): CallbackOutcome => ({
      kind: 'redirect',
      location: this.errorLocation(flow, error, code, description),
      ...(failure === undefined ? {} : { failure }),
    });
    const now = this.clock.now();
    if (Number(flow.expires_at) <= now)
      return fail('invalid_request', 'flow_state_expired', `The sign-in took too long. ${SIGN_IN_FAILED}`);
    const providerError = query.get('error');
    const provider = this.providers.get(flow.provider);
    if (providerError !== null || provider === undefined)
      return fail(
        /^[a-z_]{1,64}$/.test(providerError ?? '') ? (providerError as string) : 'server_error',
        'provider_error',
        (query.get('error_description') ?? 'The provider refused the sign-in.').slice(0, 300),
      );
    let userId: string;
    try {
      const callback = new URL(`${this.callbackUrl}?${query.toString()}`);
      const checks = { state, nonce: flow.nonce, verifier: flow.provider_verifier };
      const profile = await provider.complete(callback, checks);
      userId = await userForSignIn(this.db, this.clock, this.accounts, provider.id, profile);
    } catch (error) {
      if (error instanceof DomainError) return fail('access_denied', error.reason ?? 'signup_disabled', error.message);
      const why = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
      return fail(
        'server_error',
        'unexpected_failure',
        `${provider.displayName} sign-in failed. ${SIGN_IN_FAILED}`,
        why,
      );
    }
    return { kind: 'redirect', location: await this.successLocation(flow, userId, now) };
  }

  private async successLocation(flow: SsoFlowRow, userId: string, now: number): Promise<string> {
    const url = new URL(flow.redirect_to);
    if (flow.code_challenge !== null && flow.code_challenge_method !== null) {
      const code = generateToken('');
      await insertSsoCode(
        this.db.kysely,
        {
          code_hash: hashToken(code),
          user_id: userId,
          provider: flow.provider,
          code_challenge: flow.code_challenge,
          code_challenge_method: flow.code_challenge_method,
          authenticated_at: now,
          expires_at: now + SSO_CODE_TTL_MS,
        },
        now,
      );
      url.searchParams.set('code', code);
      return url.href;
    }
    const session = await this.accounts.startSignedInSession(userId, now);
    url.hash = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: session.token_type,
    }).toString();
    return url.href;
  }

  /** GoTrue's error redirect: in the query for a PKCE flow, in the fragment for an implicit one. */
  private errorLocation(flow: SsoFlowRow, error: string, code: string, description: string): string {
    const url = new URL(flow.redirect_to);
    const params = { error, error_code: code, error_description: description };
    if (flow.code_challenge !== null) for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    else url.hash = new URLSearchParams(params).toString();
    return url.href;
  }

  /** `POST /token?grant_type=pkce`: the session for a code and the verifier of its challenge (GoTrue's answers). */
  async exchange(authCode: string | undefined, verifier: string | undefined): Promise<Session> {
    if (!authCode || !verifier)
      throw new InvalidInput([], {
        detail: 'invalid request: both auth code and code verifier should be non-empty',
        reason: 'validation_failed',
      });
    const hash = hashToken(authCode);
    const row = await findSsoCode(this.db.kysely, hash);
    const notFound = new NotFound('invalid flow state, no valid flow state found', { reason: 'flow_state_not_found' });
    if (row === undefined || row.used_at !== null) throw notFound;
    const now = this.clock.now();
    if (Number(row.expires_at) <= now)
      throw new Refused('invalid flow state, flow state has expired', { reason: 'flow_state_expired' });
    const method = pkceMethod(row.code_challenge_method) ?? 's256';
    if (!pkceMatches(verifier, row.code_challenge, method))
      throw new InvalidInput([], {
        detail: 'code challenge does not match previously saved code verifier',
        reason: 'bad_code_verifier',
      });
    if (!(await consumeSsoCode(this.db.kysely, hash, now))) throw notFound;
    return this.accounts.startSignedInSession(row.user_id, Number(row.authenticated_at));
  }
}
