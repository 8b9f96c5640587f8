/**
 * Every operation that takes a body, fed the bodies that once let one device token stall the
 * server (docs/security.md, "Input and responses"): a mebibyte of `{}` in each list, a mebibyte
 * of unknown fields, a mebibyte-long field name, a mebibyte in each field, and a small body wrong
 * in every field. Each answer is a problem document of at most 16 KB listing at most 20 errors,
 * nothing is stored, and the two bodies of more values than any operation takes are 413. The
 * operations come from the running app (helpers/operations.ts), so a surface added later is tried
 * the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';
import { listOperations, type JsonSchema, type Operation } from '../helpers/operations.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const MIB = 1_048_576;
const MAX_ANSWER_BYTES = 16 * 1024;

/** `open` + `item`s joined by commas up to about a mebibyte + `close`. */
function filled(open: string, item: (i: number) => string, close: string): string {
  const parts: string[] = [];
  let size = open.length + close.length;
  for (let i = 0; size < MIB - 300; i += 1) {
    const next = item(i);
    parts.push(next);
    size += next.length + 1;
  }
  return open + parts.join(',') + close;
}

/** JSON paths (as [outer, inner?] field names) of the lists a body schema holds, one level down too. */
function listsOf(schema: JsonSchema | undefined): string[][] {
  const out: string[][] = [];
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    if (field.type === 'array') out.push([name]);
    for (const [inner, innerField] of Object.entries(field.properties ?? {}))
      if (innerField.type === 'array') out.push([name, inner]);
  }
  return out;
}

/** A value of the wrong type for whatever the field holds. */
const wrong = (i: number) => [12345, 'x', true, { a: 1 }, [1, 2]][i % 5];

interface Hostile {
  name: string;
  body: string;
  /** The status it must get, when it does not depend on the operation. */
  status?: number;
}

function hostileBodies(op: Operation): Hostile[] {
  const fields = op.body ?? [];
  const bodies: Hostile[] = listsOf(op.schema).map(([outer, inner]) => ({
    name: `a mebibyte of {} in ${inner ? `${outer}.${inner}` : outer}`,
    body: filled(inner ? `{"${outer}":{"${inner}":[` : `{"${outer}":[`, () => '{}', inner ? ']}}' : ']}'),
    status: 413,
  }));
  bodies.push(
    { name: 'a mebibyte of unknown fields', body: filled('{', (i) => `"f${i}":0`, '}'), status: 413 },
    { name: 'a mebibyte-long field name', body: `{"${'k'.repeat(MIB - 100)}":1}` },
    {
      name: 'every field wrong, with 40 unknown ones',
      body: JSON.stringify(
        Object.fromEntries([
          ...fields.map((f, i) => [f, wrong(i)]),
          ...Array.from({ length: 40 }, (_, i) => [`unknown_${i}`, i]),
        ]),
      ),
    },
    ...fields.map((f) => ({ name: `a mebibyte in ${f}`, body: JSON.stringify({ [f]: 'x'.repeat(MIB - 200) }) })),
  );
  return bodies;
}

describe(`hostile bodies on every operation (${engine})`, () => {
  let t: TestApp;
  let operations: Operation[];
  let bearers: (string | undefined)[];

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    bearers = [device.token, user.accessToken, TEST_SECRETS.SERVICE_ROLE_KEY, undefined];
    operations = (await listOperations(t)).filter((op) => op.body !== undefined);
  });
  afterAll(async () => t.close());

  const send = (op: Operation, token: string | undefined, body: string) =>
    t.app.inject({
      method: op.method as 'POST',
      // syncPricing is given a closed local port, so a body it accepted could not reach the network.
      url: op.path.endsWith('svc-sync-pricing') ? `${op.path}?source=http://127.0.0.1:9/x` : op.path,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body,
    });

  /** The first credential the operation lets through to its body (none for anonymous ones). */
  async function bearerFor(op: Operation): Promise<string | undefined> {
    for (const token of bearers) {
      const res = await send(op, token, '{"probe": ');
      if (res.statusCode !== 401 && res.statusCode !== 403) return token;
    }
    throw new Error(`no credential reaches the body of ${op.method} ${op.path}`);
  }

  it('answers each with a short problem document of at most 20 errors, and stores nothing', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(10);
    const before = await storedBuckets(t.db.kysely);
    let tried = 0;
    for (const op of operations) {
      const token = await bearerFor(op);
      for (const hostile of hostileBodies(op)) {
        const res = await send(op, token, hostile.body);
        const what = `${op.method} ${op.path}, ${hostile.name} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        if (hostile.status !== undefined) expect(res.statusCode, what).toBe(hostile.status);
        expect(res.rawPayload.length, what).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
        if (res.statusCode >= 400) {
          expect(res.headers['content-type'], what).toContain('application/problem+json');
          expect((res.json<{ errors?: unknown[] }>().errors ?? []).length, what).toBeLessThanOrEqual(20);
        }
        tried += 1;
      }
    }
    expect(await storedBuckets(t.db.kysely)).toEqual(before);
    console.info(`hostile-bodies: ${tried} bodies on ${operations.length} operations`);
  }, 120_000);

  it('lists all the errors of a small body, at most 20, and the first error of a large one', async () => {
    const device = bearers[0];
    const upload = (hourly: unknown[]) =>
      t.app.inject({
        method: 'POST',
        url: '/functions/svc-ingest',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${device}` },
        payload: { hourly },
      });
    const bad = (n: number) => Array.from({ length: n }, () => ({ hour_start: 1, total_tokens: 'x' }));
    const few = await upload(bad(3));
    expect(few.statusCode, few.body).toBe(400);
    expect(few.json<{ errors: unknown[] }>().errors).toHaveLength(6);
    const many = await upload(bad(15));
    expect(many.json<{ errors: unknown[] }>().errors).toHaveLength(20);
    // 500 buckets of four fields: more than 2,000 values, so only the first error is looked for.
    const large = await upload(bad(500).map((b) => ({ ...b, source: 'codex', model: 'gpt-5' })));
    expect(large.statusCode, large.body).toBe(400);
    expect(large.json<{ errors: { path: string }[] }>().errors).toEqual([
      { path: '/body/hourly/0/hour_start', message: 'must be string' },
    ]);
  });

  it('refuses an upload of more than 500 buckets with 413 before reading them, in either list', async () => {
    const device = bearers[0];
    const bucket = { hour_start: '2026-11-01T10:00:00Z', total_tokens: 1 };
    for (const payload of [
      { hourly: Array.from({ length: 501 }, () => ({})) },
      {
        hourly: Array.from({ length: 300 }, () => bucket),
        data: { hourly: Array.from({ length: 300 }, () => bucket) },
      },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-ingest',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${device}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toMatchObject({ code: 'payload_too_large' });
    }
  });
});
