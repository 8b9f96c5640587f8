/**
 * Rate limits key on the address the trusted proxies saw, never on what the client wrote into
 * X-Forwarded-For; IPv6 clients are keyed by their /64.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { clientKey } from '../../src/http/rate-limit.js';
import { bearer, signUp } from '../helpers/actors.js';
import { createTestApp, engine, testConfig, type TestApp } from '../helpers/app.js';

const randomIp = () => [...randomBytes(4)].join('.');

describe('clientKey', () => {
  it('keys IPv4 by address and IPv6 by /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});

describe('TRUST_PROXY settings', () => {
  it('reads false, true (one hop), a hop count or a list of proxy addresses', () => {
    expect(testConfig({}).trustProxy).toBe(false);
    expect(testConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(testConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(testConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(() => testConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(ConfigError);
    expect(() => testConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
  });
});

describe(`client address behind a proxy (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  const signIn = (app: TestApp, forwardedFor: string) =>
    app.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    });

  for (const trust of ['true', '1', '127.0.0.1']) {
    it(`TRUST_PROXY=${trust}: random client-written X-Forwarded-For values do not escape the sign-in limit`, async () => {
      t = await createTestApp({ env: { TRUST_PROXY: trust, RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
      const statuses: number[] = [];
      // The proxy (the test's socket, 127.0.0.1) appends the address it saw: 198.51.100.4.
      for (let i = 0; i < 6; i += 1) statuses.push((await signIn(t, `${randomIp()}, 198.51.100.4`)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
      // Another client behind the same proxy has its own budget.
      expect((await signIn(t, '198.51.100.5')).statusCode).toBe(400);
    });
  }

  it('IPv6 clients share one budget per /64', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) statuses.push((await signIn(t, `2001:db8:7:9::${i.toString(16)}`)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    expect((await signIn(t, '2001:db8:7:a::1')).statusCode).toBe(400);
  });

  it('account deletion (a password check) is limited per /64 too', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    const user = await signUp(t);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-account-delete',
        remoteAddress: `2001:db8:7:9::${i.toString(16)}`,
        headers: bearer(user.accessToken),
        payload: { password: 'a guess' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([403, 403, 403, 429, 429]);
  });

  it('without TRUST_PROXY the header is ignored: the socket address counts', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await signIn(t, randomIp())).statusCode);
    expect(statuses).toEqual([400, 400, 429]);
  });
});
