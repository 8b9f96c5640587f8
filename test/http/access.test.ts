import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

type Caller = 'anonymous' | 'invalid' | 'user' | 'device' | 'service_role';

interface Operation {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  payload?: Record<string, unknown>;
  /** Expected status per caller. */
  expect: Record<Caller, number>;
}

const OPERATIONS: Operation[] = [
  {
    name: 'issueDeviceToken',
    method: 'POST',
    url: '/functions/svc-device-token-issue',
    payload: {},
    expect: { anonymous: 401, invalid: 401, user: 200, device: 403, service_role: 400 },
  },
  {
    name: 'initLinkCode',
    method: 'POST',
    url: '/functions/svc-link-code-init',
    expect: { anonymous: 401, invalid: 401, user: 200, device: 403, service_role: 403 },
  },
  {
    name: 'exchangeLinkCode',
    method: 'POST',
    url: '/functions/svc-link-code-exchange',
    payload: { link_code: 'AAAA-BBBB-CCCC', request_id: 'r' },
    expect: { anonymous: 400, invalid: 400, user: 400, device: 400, service_role: 400 },
  },
  {
    name: 'ingestUsage',
    method: 'POST',
    url: '/functions/svc-ingest',
    payload: { hourly: [] },
    expect: { anonymous: 401, invalid: 401, user: 403, device: 200, service_role: 403 },
  },
  {
    name: 'recordSyncPing',
    method: 'POST',
    url: '/functions/svc-sync-ping',
    expect: { anonymous: 401, invalid: 401, user: 403, device: 200, service_role: 403 },
  },
  {
    name: 'debugAuth',
    method: 'GET',
    url: '/functions/svc-debug-auth',
    expect: { anonymous: 200, invalid: 200, user: 200, device: 200, service_role: 200 },
  },
];

describe(`role × operation matrix (${engine})`, () => {
  let t: TestApp;
  const tokens: Partial<Record<Caller, string>> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signUp(t);
    tokens.user = user.accessToken;
    tokens.device = (await issueDevice(t, user)).token;
    tokens.service_role = TEST_SECRETS.SERVICE_ROLE_KEY;
    tokens.invalid = 'tt_dev_unknownunknownunknownunknownunknownunk';
  });
  afterAll(async () => t.close());

  for (const op of OPERATIONS) {
    for (const caller of Object.keys(op.expect) as Caller[]) {
      it(`${op.name} as ${caller} → ${op.expect[caller]}`, async () => {
        const token = tokens[caller];
        const res = await t.app.inject({
          method: op.method,
          url: op.url,
          headers: token ? bearer(token) : {},
          ...(op.payload ? { payload: op.payload } : {}),
        });
        expect(res.statusCode, res.body).toBe(op.expect[caller]);
        if (res.statusCode >= 400) {
          expect(res.headers['content-type']).toContain('application/problem+json');
          if (res.statusCode === 401) expect(res.headers['www-authenticate']).toBe('Bearer');
        }
      });
    }
  }

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'Bearer eyJ.garbage.x'])(
    'treats the header %j as an invalid credential (401)',
    async (header) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-sync-ping',
        headers: { authorization: header },
      });
      expect(res.statusCode).toBe(401);
    },
  );
});
