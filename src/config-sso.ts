/**
 * @fileoverview The single sign-on settings (docs/running-for-a-group.md, "Single sign-on"): one
 * generic OpenID Connect provider (OIDC_*), GitHub (GITHUB_*) and the origins a sign-in may return
 * to besides PUBLIC_URL's (AUTH_REDIRECT_ALLOW_LIST). Read by `loadConfig` (config.ts) only, from
 * the variables it hands over; kept apart so config.ts stays one screenful per concern.
 */

export interface OidcProviderConfig {
  /** The issuer URL; its `/.well-known/openid-configuration` is discovered on first use. */
  readonly issuer: string;
  readonly clientId: string;
  /** Unset: a public client (PKCE only, no client authentication). */
  readonly clientSecret: string | undefined;
  /** The sign-in button's text. */
  readonly displayName: string;
}

export interface GithubProviderConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Where the OAuth pages are (https://github.com; a GitHub Enterprise Server's own address). */
  readonly baseUrl: string;
  /** Where the REST API is (https://api.github.com; GitHub Enterprise: `<base>/api/v3`). */
  readonly apiUrl: string;
}

export interface SsoConfig {
  readonly oidc: OidcProviderConfig | undefined;
  readonly github: GithubProviderConfig | undefined;
  /** Origins (scheme://host[:port]) a sign-in may redirect back to besides PUBLIC_URL's. */
  readonly redirectAllowList: readonly string[];
}

type Read = (name: string) => string | undefined;
type Fail = (message: string) => Error;

/**
 * An http(s) URL without query or fragment, its trailing slashes removed (`exact`: kept as written,
 * for an issuer, which must match the provider's own spelling).
 */
function baseUrl(
  read: Read,
  fail: Fail,
  name: string,
  fallback: string | undefined,
  exact = false,
): string | undefined {
  const raw = read(name) ?? fallback;
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw fail(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '')
    throw fail(`${name} must be an http(s) URL without query or fragment, got "${raw}"`);
  return exact ? raw.trim() : url.href.replace(/\/+$/, '');
}

function origins(read: Read, fail: Fail): string[] {
  const raw = read('AUTH_REDIRECT_ALLOW_LIST') ?? '';
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== entry.replace(/\/$/, ''))
        throw fail(`AUTH_REDIRECT_ALLOW_LIST must list origins such as https://app.example.com, got "${entry}"`);
      return url.origin;
    });
}

export function readSsoConfig(read: Read, fail: Fail): SsoConfig {
  const issuer = baseUrl(read, fail, 'OIDC_ISSUER', undefined, true);
  const oidcClientId = read('OIDC_CLIENT_ID');
  if ((issuer === undefined) !== (oidcClientId === undefined))
    throw fail('OIDC_ISSUER and OIDC_CLIENT_ID go together: set both to offer OpenID Connect sign-in, or neither');
  const githubId = read('GITHUB_CLIENT_ID');
  const githubSecret = read('GITHUB_CLIENT_SECRET');
  if ((githubId === undefined) !== (githubSecret === undefined))
    throw fail('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET go together: set both to offer GitHub sign-in, or neither');
  return {
    oidc:
      issuer !== undefined && oidcClientId !== undefined
        ? {
            issuer,
            clientId: oidcClientId,
            clientSecret: read('OIDC_CLIENT_SECRET'),
            displayName: (read('OIDC_DISPLAY_NAME') ?? 'Single sign-on').slice(0, 60),
          }
        : undefined,
    github:
      githubId !== undefined && githubSecret !== undefined
        ? {
            clientId: githubId,
            clientSecret: githubSecret,
            baseUrl: baseUrl(read, fail, 'GITHUB_BASE_URL', 'https://github.com') ?? 'https://github.com',
            apiUrl: baseUrl(read, fail, 'GITHUB_API_URL', 'https://api.github.com') ?? 'https://api.github.com',
          }
        : undefined,
    redirectAllowList: origins(read, fail),
  };
}
