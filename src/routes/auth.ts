/**
 * @fileoverview The sign-in API under /auth/v1, wire-compatible with GoTrue so that the official
 * `@supabase/auth-js` client works unchanged. Unknown body fields (captcha, PKCE, …) are ignored.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import type { AccountService } from '../services/accounts.js';

const Profile = Type.Object(
  {
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    avatar_url: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  },
  { additionalProperties: true },
);

const SignUpBody = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }), data: Type.Optional(Profile) },
  { additionalProperties: true },
);

const TokenBody = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 320 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    refresh_token: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: true },
);

const TokenQuery = Type.Object({ grant_type: Type.Union([Type.Literal('password'), Type.Literal('refresh_token')]) });
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

const hidden = { hide: true, tags: ['auth'] };

export function registerAuthRoutes(app: App, deps: { accounts: AccountService; limiter: RateLimiter }): void {
  const { accounts, limiter } = deps;
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

  app.get('/auth/v1/settings', { schema: hidden }, async () => ({
    external: { email: true },
    disable_signup: false,
    mailer_autoconfirm: true,
    phone_autoconfirm: false,
  }));

  app.get('/auth/v1/health', { schema: hidden }, async () => ({
    name: 'tokentally-auth',
    description: 'GoTrue-compatible sign-in API',
  }));
}
