/**
 * PUBLIC_URL: the discovery files' absolute URLs come from the setting, never from the request's
 * Host header (a request naming another host, through a shared cache, would otherwise point every
 * later reader — agents reading llms.txt — at that host).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const FILES = ['/llms.txt', '/.well-known/ai-plugin.json', '/docs/auth', '/docs/webhooks', '/openapi.json', '/'];

describe('PUBLIC_URL (the setting)', () => {
  it('defaults to the listen address; a wildcard host becomes 127.0.0.1', () => {
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:8787');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://127.0.0.1:8787');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8787');
    expect(loadConfig({ HOST: 'tt.internal' }).publicUrl).toBe('http://tt.internal:8787');
  });

  it('takes an http(s) URL, a path kept, trailing slashes removed', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://tt.example.com/' }).publicUrl).toBe('https://tt.example.com');
    expect(loadConfig({ PUBLIC_URL: 'https://TT.example.com:8443/tokentally//' }).publicUrl).toBe(
      'https://tt.example.com:8443/tokentally',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8787' }).publicUrl).toBe('http://10.0.0.5:8787');
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of [
      'tt.example.com',
      'ftp://tt.example.com',
      'javascript:alert(1)',
      'https://tt.example.com/?a=1',
      'https://tt.example.com/#top',
      'https://tt.example.com?',
      'https://user:pw@tt.example.com',
      'https://',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });
});

describe(`discovery files and the Host header (${engine})`, () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const read = async (app: TestApp, url: string, host: string) =>
    (await app.app.inject({ method: 'GET', url, headers: { host, 'x-forwarded-host': host } })).body;

  it('a request with Host: evil.example gets no evil.example in any of them', async () => {
    t = await createTestApp();
    for (const file of FILES) {
      const body = await read(t, file, 'evil.example');
      expect(body, file).not.toContain('evil.example');
    }
    expect(await read(t, '/llms.txt', 'evil.example')).toContain('http://127.0.0.1:8787/openapi.json');
    const manifest = JSON.parse(await read(t, '/.well-known/ai-plugin.json', 'evil.example')) as {
      api: { url: string };
    };
    expect(manifest.api.url).toBe('http://127.0.0.1:8787/openapi.json');
  });

  it('with PUBLIC_URL set, they carry it', async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://tt.example.com/' } });
    const llms = await read(t, '/llms.txt', 'evil.example');
    expect(llms).toContain('https://tt.example.com/functions/svc-<operation>');
    expect(llms).toContain('[OpenAPI 3.1 document](https://tt.example.com/openapi.json)');
    expect(llms).not.toContain('evil.example');
    const manifest = JSON.parse(await read(t, '/.well-known/ai-plugin.json', 'evil.example')) as {
      api: { url: string };
      legal_info_url: string;
    };
    expect(manifest.api.url).toBe('https://tt.example.com/openapi.json');
    expect(manifest.legal_info_url).toBe('https://tt.example.com/docs/auth');
  });
});
