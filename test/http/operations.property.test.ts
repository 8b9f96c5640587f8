/**
 * No input reaches a 5xx: every operation in /openapi.json is fed generated bodies, query strings
 * and bearers (fast-check; the seed is fixed and printed so any failure replays exactly). Every
 * answer is below 500, an error is a problem document without a stack trace, and stored usage
 * changes only through an upload the server accepted.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtService } from '../../src/security/jwt.js';
import { bearer, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';
import { listOperations, type Operation } from '../helpers/operations.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const SEED = Number(process.env.FC_SEED ?? 1_324_113);
console.info(`operations.property: fast-check seed ${SEED}`);

describe(`every operation, generated input (${engine})`, () => {
  let t: TestApp;
  let operations: Operation[];
  let bearers: string[];

  beforeAll(async () => {
    // syncPricing must not reach the network: its source is a closed local port.
    t = await createTestApp({ env: { PRICING_SOURCE_URL: 'http://127.0.0.1:9/prices.json' } });
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const share = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/svc-public-visibility',
        headers: bearer(user.accessToken),
        payload: { enabled: true },
      })
    ).json<{ share_token: string }>().share_token;
    const ghost = (
      await new JwtService(TEST_SECRETS.JWT_SECRET, 3600).sign(
        { sub: 'no-such-user', email: 'x@example.com', sessionId: 's' },
        t.clock.now(),
      )
    ).token;
    bearers = [
      user.accessToken,
      device.token,
      share,
      TEST_SECRETS.SERVICE_ROLE_KEY,
      ghost,
      'tt_dev_x',
      'a.b.c',
      'Basic xyz',
    ];
    operations = await listOperations(t);
  });
  afterAll(async () => t.close());

  const storedUsage = async () => {
    const buckets = await storedBuckets(t.db.kysely);
    return `${buckets.length} rows, ${String(buckets.reduce((sum, b) => sum + b.billable, 0n))} billable`;
  };

  it('answers every generated request below 500 with a problem document, and stores nothing it refused', async () => {
    expect(operations.length).toBeGreaterThan(25);
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        '2026-11-01T10:30:00.000Z',
        '2026-11-01',
        'America/New_York',
        'Mars/Olympus',
        '\u0000',
        '-1',
        '1e400',
        'NaN',
        "' OR 1=1 --",
        'x'.repeat(300),
      ),
      fc.integer({ min: -1e15, max: 1e15 }),
    );
    const queryValue = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '2026-11-01',
        '2026-13-45',
        'week',
        'total',
        'all',
        '-720',
        '841',
        '1.5',
        '%zz',
        'America/New_York',
        '',
      ),
    );
    let ingested = false;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 10_000 }),
        fc.option(fc.nat({ max: 10_000 }), { nil: undefined }),
        fc.dictionary(fc.string({ maxLength: 8 }), queryValue, { maxKeys: 2 }),
        fc.array(queryValue, { maxLength: 6 }),
        fc.oneof(
          fc.constant(undefined),
          fc.jsonValue({ maxDepth: 3 }),
          fc.array(value, { maxLength: 8 }),
          fc.array(
            fc.record(
              { hour_start: value, source: value, model: value, total_tokens: value, input_tokens: value },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
        ),
        fc.array(value, { maxLength: 8 }),
        async (opIndex, bearerIndex, extraQuery, queryValues, nested, bodyValues) => {
          const op = operations[opIndex % operations.length] as Operation;
          const params = new URLSearchParams();
          op.query.forEach((name, i) => {
            const v = queryValues[i];
            if (v !== undefined) params.set(name, v);
          });
          for (const [k, v] of Object.entries(extraQuery)) params.set(k, v);
          let payload: string | undefined;
          if (op.body) {
            const body: Record<string, unknown> = {};
            op.body.forEach((name, i) => {
              if (i < bodyValues.length)
                body[name] = name === 'hourly' || name === 'device_subscriptions' ? nested : bodyValues[i];
            });
            payload = JSON.stringify(body);
          }
          const token = bearerIndex === undefined ? undefined : bearers[bearerIndex % bearers.length];
          const before = op.path.endsWith('svc-ingest') ? await storedUsage() : undefined;
          const res = await t.app.inject({
            method: op.method as 'GET',
            url: `${op.path}${params.size > 0 ? `?${params.toString()}` : ''}`,
            headers: {
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(payload !== undefined ? { payload } : {}),
          });
          const what = `${op.method} ${op.path}?${params.toString()} ${payload ?? ''} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          expect(res.body, what).not.toMatch(/\n\s+at |node_modules|Error: /);
          if (res.statusCode >= 400) expect(res.headers['content-type'], what).toContain('application/problem+json');
          if (before !== undefined) {
            const accepted = res.statusCode === 200 && (res.json<{ inserted?: number }>().inserted ?? 0) > 0;
            if (accepted) ingested = true;
            else expect(await storedUsage(), what).toBe(before);
          }
        },
      ),
      { seed: SEED, numRuns: 1500 },
    );
    console.info(`operations.property: ${operations.length} operations; an upload was accepted: ${ingested}`);
  }, 240_000);
});
