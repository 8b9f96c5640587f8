/** The retention job purges spent credentials: expired link codes and used, revoked or expired refresh tokens. */
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/calendar.js';
import { purgeSpentCredentials } from '../../src/jobs/purge-credentials.js';
import { bearer, signUp } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`purgeSpentCredentials (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  const count = async (table: 'link_codes' | 'refresh_tokens') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<bigint>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });

  it('keeps what is still useful and deletes what can never be used again', async () => {
    t = await createTestApp({
      env: {
        LINK_CODE_TTL_SECONDS: '600',
        REFRESH_TOKEN_TTL_SECONDS: String(90 * 86_400),
        ACCESS_TOKEN_TTL_SECONDS: '604800',
      },
    });
    const user = await signUp(t);
    const linkCode = () =>
      t.app.inject({ method: 'POST', url: '/functions/svc-link-code-init', headers: bearer(user.accessToken) });
    expect((await linkCode()).statusCode).toBe(200);
    const successor = (await refresh(user.refreshToken)).json<{ refresh_token: string }>().refresh_token; // the first token is now used
    expect(await purgeSpentCredentials(t, { days: 30 })).toEqual({ linkCodes: 0, refreshTokens: 0, recoveryTokens: 0 });

    // A day and a bit later the code has been expired for a day; the used token is still kept.
    t.clock.advance(DAY_MS + 601_000);
    expect((await linkCode()).statusCode).toBe(200);
    expect(await purgeSpentCredentials(t, { days: 30 })).toEqual({ linkCodes: 1, refreshTokens: 0, recoveryTokens: 0 });
    expect(await count('link_codes')).toBe(1);

    // After the retention period the used token goes; its live successor stays.
    t.clock.advance(30 * DAY_MS);
    expect(await purgeSpentCredentials(t, { days: 30 })).toEqual({ linkCodes: 1, refreshTokens: 1, recoveryTokens: 0 });
    expect(await count('refresh_tokens')).toBe(1);
    expect((await refresh(successor)).statusCode).toBe(200);

    // Expired tokens go as soon as they expire.
    t.clock.advance(91 * DAY_MS);
    const purged = await purgeSpentCredentials(t, { days: 30 });
    expect(purged.refreshTokens).toBeGreaterThanOrEqual(1);
    expect(await count('refresh_tokens')).toBe(0);
  });
});
