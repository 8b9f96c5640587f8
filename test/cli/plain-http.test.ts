/** The CLI warns once when its token would travel over plain http:// to a machine that is not this one. */
import { describe, expect, it } from 'vitest';
import { defaultApiOptions, plainHttpWarning, postJson } from '../../src/cli/api.js';

describe('plain http warning', () => {
  it('names only non-loopback http:// servers', () => {
    for (const url of [
      'https://tt.example.com/x',
      'http://127.0.0.1:8787/x',
      'http://localhost:8787/x',
      'http://[::1]:8787/x',
      'http://dev.localhost/x',
    ]) {
      expect(plainHttpWarning(url), url).toBeUndefined();
    }
    for (const url of ['http://tt.example.com/x', 'http://192.168.1.5:8787/x', 'http://[2001:db8::1]/x']) {
      expect(plainHttpWarning(url), url).toMatch(/plain http:\/\//);
    }
  });

  it('warns once per server, and only when a token is sent', async () => {
    const warnings: string[] = [];
    // TEST-NET-1: nothing answers; one quick attempt is enough.
    const opts = { ...defaultApiOptions, attempts: 1, timeoutMs: 50, warn: (m: string) => warnings.push(m) };
    const url = 'http://192.0.2.1:9/functions/svc-ingest';
    await expect(postJson(url, {}, undefined, opts)).rejects.toThrow();
    expect(warnings).toHaveLength(0);
    await expect(postJson(url, {}, 'tt_dev_x', opts)).rejects.toThrow();
    await expect(postJson(url, {}, 'tt_dev_x', opts)).rejects.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('192.0.2.1:9');
  });
});
