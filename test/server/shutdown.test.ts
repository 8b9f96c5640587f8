import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_SECRETS } from '../helpers/app.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Starts `src/server.ts` in a fresh DATA_DIR and waits for its address. */
async function startServer(dirs: string[], env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-server-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...TEST_SECRETS,
      DATA_DIR: dataDir,
      PORT: '0',
      PASSWORD_SCRYPT_COST: '32768',
      JOBS_ENABLED: 'false',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m?.[1]) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
  return { child, exited, port, dataDir };
}

describe('server process', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves, and on SIGTERM finishes the request in flight, then exits 0', async () => {
    const { child, exited, port, dataDir } = await startServer(dirs);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'tokentally.db'))).toBe(true);

    // A request whose body is still arriving when SIGTERM comes.
    const body = JSON.stringify({ email: 'slow@example.com', password: 'long enough' });
    const response = new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/auth/v1/signup',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // Time for the server to have read the headers even on a busy machine (headers read after
      // SIGTERM are answered 503, as a closing server does).
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 200);
      }, 1000);
    });
    expect(await response).toBe(200);
    expect(await exited).toBe(0);
  });

  it('on SIGTERM closes a connection whose body never finishes once the grace period is over, then exits 0', async () => {
    const { child, exited, port } = await startServer(dirs, { SHUTDOWN_GRACE_MS: '300', REQUEST_TIMEOUT_MS: '600000' });
    // An anonymous sign-up that sends half its body and then nothing.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(
      `POST /auth/v1/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`,
    );
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
