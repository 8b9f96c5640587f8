/**
 * Slow clients stall nothing (issue: "uploads can be stalled for everyone by one account"): sockets
 * that send an upload's headers and `{"hourly":[` and then nothing hold no in-flight slot, other
 * uploads still succeed, and the slow ones get a 408 problem document and a closed connection.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const HOUR = '2026-11-01T10:00:00.000Z';

/** Opens a socket, writes `text`, and resolves with everything the server sent until it closed. */
function stalledRequest(port: number, text: string): { opened: Promise<void>; answer: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1');
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(text);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const answer = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(received));
    socket.on('error', () => undefined);
  });
  return { opened, answer };
}

function uploadHead(port: number, token: string, length: number): string {
  return (
    `POST /functions/svc-ingest HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`
  );
}

describe('slow clients', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('a stalled body holds no in-flight slot: other uploads succeed, the stalled ones get 408 and are closed', async () => {
    t = await createTestApp({
      env: { INGEST_MAX_INFLIGHT: '4', REQUEST_HEADERS_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '1200' },
    });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(address).port);
    const attacker = await signUp(t);
    const devices = await Promise.all([1, 2, 3].map((i) => issueDevice(t!, attacker, `attack-${i}`)));
    const victim = await issueDevice(t, await signUp(t));

    // Three devices of one account, four sockets each: 12 stalled uploads against a cap of 4.
    const stalled = devices.flatMap((device) =>
      Array.from({ length: 4 }, () => stalledRequest(port, uploadHead(port, device.token, 10_000) + '{"hourly":[')),
    );
    await Promise.all(stalled.map((s) => s.opened));
    await new Promise((resolve) => setTimeout(resolve, 150)); // their headers are in, their bodies are not

    const started = Date.now();
    const upload = await fetch(`${address}/functions/svc-ingest`, {
      method: 'POST',
      headers: { ...bearer(victim.token), 'content-type': 'application/json' },
      body: JSON.stringify({ hourly: [{ hour_start: HOUR, source: 'codex', model: 'gpt-5', total_tokens: 10 }] }),
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(upload.headers.get('x-content-type-options')).toBe('nosniff');

    const answers = await Promise.all(stalled.map((s) => s.answer));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/content-type: application\/problem\+json/i);
      expect(answer).toMatch(/"status":408/);
    }
  });

  it('headers that never finish get 408 after the headers timeout and the connection closes', async () => {
    t = await createTestApp({ env: { REQUEST_HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '5000' } });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(address).port);
    const started = Date.now();
    const slow = stalledRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
    const answer = await slow.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
