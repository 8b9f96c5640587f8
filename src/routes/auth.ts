/**
 * @fileoverview The sign-in API under /auth/v1, wire-compatible with GoTrue so that the official
 * `@supabase/auth-js` client works unchanged. Unknown body fields (captcha, PKCE, …) are ignored.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { AppError, problems } from '../http/problem.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import type { AccountService } from '../services/accounts.js';
import type { SignupPolicy } from '../services/signup-policy.js';
import type { SsoService } from '../services/sso.js';
import { registerSsoRoutes } from './auth-sso.js';
import type { RecoveryService } from '../services/recovery.js';
import { hashToken } from '../security/tokens.js';

const Profile = Type.Object(
  {
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    avatar_url: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  },
  { additionalProperties: true },
);

/** Sign-up's `data`: the profile, and the invite it carries (never stored: docs/running-for-a-group.md). */
const SignUpData = Type.Object(
  {
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    avatar_url: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    invite_token: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

const SignUpBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 1024 }),
    data: Type.Optional(SignUpData),
  },
  { additionalProperties: true },
);

/** GoTrue's `POST /admin/users` (auth-js `auth.admin.createUser`): `app_metadata.role: "admin"` makes an admin. */
const AdminCreateUserBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 1024 }),
    user_metadata: Type.Optional(Profile),
    app_metadata: Type.Optional(
      Type.Object(
        { role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('user')])) },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);

const TokenBody = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 320 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    refresh_token: Type.Optional(Type.String({ maxLength: 512 })),
    auth_code: Type.Optional(Type.String({ maxLength: 512 })),
    code_verifier: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: true },
);

const TokenQuery = Type.Object({
  grant_type: Type.Union([Type.Literal('password'), Type.Literal('refresh_token'), Type.Literal('pkce')]),
});
const LogoutQuery = Type.Object({
  scope: Type.Optional(Type.Union([Type.Literal('global'), Type.Literal('local'), Type.Literal('others')])),
});
const UpdateUserBody = Type.Object(
  {
    data: Type.Optional(Profile),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    current_password: Type.Optional(Type.String({ maxLength: 1024 })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
  },
  { additionalProperties: true },
);

const RecoverBody = Type.Object({ email: Type.String({ maxLength: 320 }) }, { additionalProperties: true });
const RedirectQuery = Type.Object({ redirect_to: Type.Optional(Type.String({ maxLength: 2000 })) });
const VerifyQuery = Type.Object({
  type: Type.String({ maxLength: 40 }),
  token: Type.String({ maxLength: 200 }),
  redirect_to: Type.Optional(Type.String({ maxLength: 2000 })),
});

const hidden = { hide: true, tags: ['auth'] };

export interface AuthRouteDeps {
  accounts: AccountService;
  /** Who may sign up (modes, domains, invites), and what the settings say of it. */
  policy: SignupPolicy;
  recovery: RecoveryService;
  sso: SsoService;
  /** The server's public base URL (PUBLIC_URL): single sign-on's callback and redirect checks. */
  publicUrl: string;
  /** Per client address: sign-up, sign-in, refresh, password change, recovery. */
  limiter: RateLimiter;
  /** Recovery mails per e-mail address: a minute's and an hour's. */
  recoverLimiters: readonly RateLimiter[];
}

export function registerAuthRoutes(app: App, deps: AuthRouteDeps): void {
  const { accounts, policy, recovery, sso, limiter, recoverLimiters } = deps;
  const rateLimited = async (request: { ip: string }) => {
    const decision = await limiter.take(`auth:${clientKey(request.ip)}`);
    if (!decision.allowed)
      throw problems.rateLimited(
        decision.retryAfterSeconds,
        'Too many sign-in attempts from this address; retry later.',
      );
  };

  app.post('/auth/v1/signup', { schema: { ...hidden, body: SignUpBody }, onRequest: rateLimited }, async (request) => {
    const { email, password, data } = request.body;
    return accounts.signUp(email, password, data ?? {});
  });

  app.post(
    '/auth/v1/token',
    { schema: { ...hidden, body: TokenBody, querystring: TokenQuery }, onRequest: rateLimited },
    async (request) => {
      const body = request.body;
      if (request.query.grant_type === 'password') {
        if (body.email === undefined || body.password === undefined) {
          throw problems.invalid('email and password are required for grant_type=password.');
        }
        return accounts.signInWithPassword(body.email, body.password);
      }
      if (request.query.grant_type === 'pkce') return sso.exchange(body.auth_code, body.code_verifier);
      if (body.refresh_token === undefined)
        throw problems.invalid('refresh_token is required for grant_type=refresh_token.');
      return accounts.refresh(body.refresh_token);
    },
  );

  app.get('/auth/v1/user', { schema: hidden, config: { access: { roles: ['user'] } } }, async (request) =>
    accounts.getUser(principalOf(request, 'user').userId),
  );

  // Limited like sign-in: a password change checks the current password and costs password hashes.
  app.put(
    '/auth/v1/user',
    { schema: { ...hidden, body: UpdateUserBody }, config: { access: { roles: ['user'] } }, onRequest: rateLimited },
    async (request) => {
      const { userId, sessionId } = principalOf(request, 'user');
      const { data, password, current_password: currentPassword, email } = request.body;
      return accounts.updateUser(userId, sessionId, { data, password, currentPassword, email });
    },
  );

  app.post(
    '/auth/v1/logout',
    { schema: { ...hidden, querystring: LogoutQuery }, config: { access: { roles: ['user'] } } },
    async (request, reply) => {
      const user = principalOf(request, 'user');
      await accounts.signOut(user.userId, user.sessionId, request.query.scope ?? 'global');
      return reply.code(204).send();
    },
  );

  registerSsoRoutes(app, { sso, publicUrl: deps.publicUrl, rateLimited });

  // GoTrue's recovery: always `{}` (no word on whether the address has an account); the mail, if
  // any, is sent after the answer. Limited per client, and per address (any address, known or not).
  app.post(
    '/auth/v1/recover',
    { schema: { ...hidden, body: RecoverBody, querystring: RedirectQuery }, onRequest: rateLimited },
    async (request) => {
      const email = recovery.address(request.body.email);
      if (recovery.mailEnabled) {
        const key = hashToken(email);
        for (const perAddress of recoverLimiters) {
          const decision = await perAddress.take(key);
          if (!decision.allowed)
            throw new AppError(
              429,
              'rate_limited',
              `For security purposes, you can only request this after ${decision.retryAfterSeconds} seconds.`,
              {
                headers: { 'Retry-After': String(decision.retryAfterSeconds) },
                authCode: 'over_email_send_rate_limit',
              },
            );
        }
      }
      recovery.requestMail(email, request.query.redirect_to);
      return {};
    },
  );

  // The recovery link: 303 to the dashboard with a new session, or GoTrue's error, in the fragment.
  app.get(
    '/auth/v1/verify',
    { schema: { ...hidden, querystring: VerifyQuery }, onRequest: rateLimited },
    async (request, reply) => {
      const { type, token, redirect_to: redirectTo } = request.query;
      if (type !== 'recovery') throw problems.invalidField('/querystring/type', 'must be recovery');
      const location = await recovery.verify(token, redirectTo);
      return reply
        .code(303)
        .headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
        .send();
    },
  );

  // GoTrue's settings. `disable_signup` is true unless anyone may sign up (invite mode too: a GoTrue
  // client without an invite cannot); `signup_mode` says which (docs/running-for-a-group.md, "What
  // clients are told"). `external` also names each single sign-on provider, `external_labels` its
  // button text; `recovery_mail` (ours): whether /recover sends mail (SMTP_URL set).
  app.get('/auth/v1/settings', { schema: hidden }, async () => {
    const mode = (await policy.settings()).signup_mode;
    return {
      external: { email: true, ...sso.listProviders().external },
      external_labels: sso.listProviders().names,
      disable_signup: mode !== 'open',
      signup_mode: mode,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      recovery_mail: recovery.mailEnabled,
    };
  });

  // The operator's way to add an account whatever the sign-up settings (npm run admin -- create-user).
  app.post(
    '/auth/v1/admin/users',
    { schema: { ...hidden, body: AdminCreateUserBody }, config: { access: { roles: ['service_role'] } } },
    async (request) => {
      const { email, password, user_metadata: profile, app_metadata: app } = request.body;
      return accounts.createUser(email, password, profile ?? {}, app?.role === 'admin');
    },
  );

  app.get('/auth/v1/health', { schema: hidden }, async () => ({
    name: 'tokentally-auth',
    description: 'GoTrue-compatible sign-in API',
  }));
}
