/**
 * @fileoverview Real server processes for tests: `start` spawns src/server.ts (tsx) with test
 * secrets, port 0 and jobs off unless `env` says otherwise, and follows its JSON log lines.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { waitForUpdate } from '@pydantic/genai-prices';
import { TEST_SECRETS } from './app.js';

const root = path.resolve(import.meta.dirname, '../..');

export interface Started {
  child: ChildProcessByStdio<null, Readable, Readable>;
  exited: Promise<number | null>;
  /** Every JSON log line so far. */
  lines: () => Array<Record<string, unknown>>;
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
}

export function start(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...TEST_SECRETS,
      PORT: '0',
      PASSWORD_SCRYPT_COST: '32768',
      JOBS_ENABLED: 'false',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out);
        if (m) resolve(m);
        else if (child.exitCode !== null)
          reject(new Error(`server exited (${child.exitCode}) before ${pattern}: ${out}`));
        else waiters.push(check);
      };
      child.once('exit', check);
      check();
    });
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, exited, lines, waitFor };
}

/** One request on a connection of its own (so the cluster hands each to the next process). */
export function request(
  port: number,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; headers: http.IncomingHttpHeaders }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: text ? (JSON.parse(text) as unknown) : undefined,
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function childPids(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  return fs.readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Serves genai-prices data with gpt-5's input price changed to $2.50/Mtok (a sync switches to it). */
export async function servePriceFixture(): Promise<{ server: http.Server; url: string }> {
  const data = JSON.parse(JSON.stringify(await waitForUpdate())) as Array<{
    id: string;
    models: Array<{ id: string; prices: unknown }>;
  }>;
  const gpt5 = data.find((p) => p.id === 'openai')?.models.find((m) => m.id === 'gpt-5');
  if (!gpt5 || Array.isArray(gpt5.prices)) throw new Error('fixture model missing');
  gpt5.prices = { ...(gpt5.prices as object), input_mtok: 2.5 };
  const body = JSON.stringify(data);
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices.json` };
}
