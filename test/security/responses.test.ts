/**
 * Small response rules: only the body parser's failures are "not valid JSON" (a SyntaxError inside
 * the server is a logged 500), a malformed URL gets a problem document, and every response says
 * `X-Content-Type-Options: nosniff`.
 */
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerBodyParsing } from '../../src/http/body-parsing.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { capturingLogger, createTestApp, engine, type TestApp } from '../helpers/app.js';

describe('error mapping', () => {
  it('answers 400 "not valid JSON" only for the body parser; a SyntaxError thrown by the server is a logged 500', async () => {
    const logs: string[] = [];
    const app = Fastify({ loggerInstance: capturingLogger(logs) as FastifyBaseLogger });
    registerErrorHandling(app, () => []);
    registerBodyParsing(app);
    app.post('/echo', async (request) => ({ got: request.body }));
    app.get('/broken', async () => JSON.parse('{"stored": ') as unknown);
    await app.ready();
    try {
      const bad = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{"a":',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ status: 400, detail: 'The body is not valid JSON.' });
      const broken = await app.inject({ method: 'GET', url: '/broken' });
      expect(broken.statusCode).toBe(500);
      expect(broken.json()).toMatchObject({ status: 500, code: 'internal' });
      expect(logs.join('')).toContain('SyntaxError');
    } finally {
      await app.close();
    }
  });
});

describe(`response headers and malformed URLs (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('a URL with a broken percent-encoding gets a 400 problem document', async () => {
    t = await createTestApp();
    for (const url of ['/functions/%E0%A4%A', '/functions/svc-leaderboard%zz?period=week']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('every response carries X-Content-Type-Options: nosniff', async () => {
    t = await createTestApp();
    for (const url of [
      '/healthz',
      '/openapi.json',
      '/no/such/path',
      '/functions/svc-usage-summary',
      '/',
      '/badge/00000000-0000-4000-8000-000000000000.svg',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});
