/**
 * A tiny node:http stand-in for the endpoints the CLI calls, on 127.0.0.1 port 0. It
 * stores buckets with the server's replace semantics and can be told to answer 429/503 or to
 * fail, so upload, retry and queue behaviour can be tested without the real server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireBucket } from '../../src/cli/queue.js';

/** A bucket as the CLI sends it (and as this fake stores it). */
export type StoredBucket = WireBucket;

export interface FakeServer {
  url: string;
  /** identity "hour|source|model|project" → bucket */
  buckets: Map<string, StoredBucket>;
  requests: { path: string; auth: string | undefined; body: unknown }[];
  /** Answers to give before normal behaviour resumes, consumed in order. */
  script: { status: number; retryAfter?: string; body?: unknown }[];
  exchanges: Map<string, string>;
  /** Answer 400 to any upload containing a bucket of this model. */
  rejectModel?: string;
  /** The /healthz answer (default `{"status":"ok"}`). */
  health?: unknown;
  /** The e-mail address the link-code exchange names as the account (default `owner@example.com`). */
  accountEmail?: string;
  close(): Promise<void>;
}

export const TOKEN = 'tt_dev_testtoken';

function problem(res: http.ServerResponse, status: number, detail: string, retryAfter?: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  res.writeHead(status, headers);
  res.end(JSON.stringify({ type: 'about:blank', title: 'error', status, detail, code: 'x' }));
}

export async function startFakeServer(opts: { validCode?: string } = {}): Promise<FakeServer> {
  const state: Omit<FakeServer, 'url' | 'close'> = {
    buckets: new Map(),
    requests: [],
    script: [],
    exchanges: new Map(),
  };
  const api = state as FakeServer;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body: unknown = raw === '' ? undefined : JSON.parse(raw);
      const path = req.url ?? '';
      state.requests.push({ path, auth: req.headers.authorization, body });
      if (path === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(api.health ?? { status: 'ok' }));
        return;
      }
      const scripted = state.script.shift();
      if (scripted !== undefined) {
        if (scripted.status >= 400) return problem(res, scripted.status, 'scripted failure', scripted.retryAfter);
        res.writeHead(scripted.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(scripted.body ?? {}));
        return;
      }
      if (path === '/functions/svc-link-code-exchange') {
        const b = body as { link_code?: string; request_id?: string };
        if (b.link_code !== (opts.validCode ?? 'ABCD-EFGH-JKMN'))
          return problem(res, 400, 'unknown or expired link code');
        const used = state.exchanges.get(b.link_code ?? '');
        if (used !== undefined && used !== b.request_id) return problem(res, 409, 'link code already used');
        state.exchanges.set(b.link_code ?? '', b.request_id ?? '');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            token: TOKEN,
            device_id: '11111111-1111-4111-8111-111111111111',
            user_id: '22222222-2222-4222-8222-222222222222',
            account: { email: api.accountEmail ?? 'owner@example.com', display_name: null },
          }),
        );
        return;
      }
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return problem(res, 401, 'missing or invalid device token');
      if (path === '/functions/svc-sync-ping') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            success: true,
            updated: true,
            last_sync_at: new Date().toISOString(),
            min_interval_minutes: 30,
          }),
        );
        return;
      }
      if (path === '/functions/svc-ingest') {
        const hourly = (body as { hourly: StoredBucket[] }).hourly;
        if (hourly.length > 500) return problem(res, 413, 'too many buckets');
        if (api.rejectModel !== undefined && hourly.some((b) => b.model === api.rejectModel))
          return problem(res, 400, 'model name not accepted');
        let inserted = 0;
        const groups = new Set(hourly.map((b) => `${b.hour_start}|${b.source}|${b.model}`));
        for (const k of [...state.buckets.keys()])
          if (groups.has(k.slice(0, k.lastIndexOf('|')))) state.buckets.delete(k);
        for (const b of hourly) {
          state.buckets.set(`${b.hour_start}|${b.source}|${b.model}|${b.project_key ?? ''}`, b);
          inserted += 1;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, inserted, skipped: 0 }));
        return;
      }
      problem(res, 404, 'not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  api.url = `http://127.0.0.1:${port}`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

/** Sum of stored total_tokens on the fake server. */
export function serverTotal(s: FakeServer): number {
  let t = 0;
  for (const b of s.buckets.values()) t += b.total_tokens;
  return t;
}
