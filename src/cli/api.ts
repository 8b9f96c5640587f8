/**
 * @fileoverview HTTP client for the endpoints the CLI uses. JSON in and out, problem
 * documents turned into {@link ApiError} with the server's `detail`, and retries with
 * exponential backoff on network errors, 429, 502, 503 and 504 that honour `Retry-After`.
 * Uses node:http(s) rather than `fetch`: loading fetch costs a sizeable share of the no-change
 * sync budget in every process (docs/cli.md, "Performance").
 */
import http from 'node:http';
import https from 'node:https';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  /** Per-request timeout. */
  timeoutMs: number;
  /** Attempts in total, first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for; the call fails as retryable. */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Called before each wait, e.g. to tell the user. */
  onRetry?: (waitMs: number, status: number) => void;
  /** Where a warning goes (standard error by default). */
  warn?: (message: string) => void;
}

export const defaultApiOptions: ApiOptions = {
  timeoutMs: 20_000,
  attempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 120_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const RETRYABLE = new Set([429, 502, 503, 504]);

/** Milliseconds from a Retry-After header (seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

interface RawResponse {
  status: number;
  statusText: string;
  retryAfter: string | null;
  text: string;
}

/** One request; rejects on network errors and timeouts. */
function httpSend(
  method: 'GET' | 'POST',
  url: string,
  body: string | undefined,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const mod = u.protocol === 'https:' ? https : http;
    const h: Record<string, string | number> = { ...headers };
    if (body !== undefined) h['content-length'] = Buffer.byteLength(body);
    const req = mod.request(u, { method, headers: h, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const ra = res.headers['retry-after'];
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          retryAfter: typeof ra === 'string' ? ra : null,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

function describe(res: RawResponse): string {
  const text = res.text;
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null) {
      const detail = (body as Record<string, unknown>)['detail'] ?? (body as Record<string, unknown>)['error'];
      if (typeof detail === 'string' && detail !== '') return detail;
    }
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || res.statusText || `HTTP ${res.status}`;
}

const warnedOrigins = new Set<string>();

/** The warning for a token about to travel unencrypted to another machine; undefined when it does not. */
export function plainHttpWarning(url: string): string | undefined {
  const u = new URL(url);
  if (u.protocol !== 'http:') return undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))
    return undefined;
  return `warning: sending your token over plain http:// to ${u.host}; anyone on the way can read and reuse it. Use an https:// server address.`;
}

/** POST a JSON body (or none) and return the parsed JSON answer of a 2xx response. */
export function postJson(
  url: string,
  body: unknown,
  token: string | undefined,
  opts: ApiOptions = defaultApiOptions,
): Promise<unknown> {
  return sendJson('POST', url, body, token, opts);
}

/** GET and return the parsed JSON answer of a 2xx response (same retries as postJson). */
export function getJson(
  url: string,
  token: string | undefined,
  opts: ApiOptions = defaultApiOptions,
): Promise<unknown> {
  return sendJson('GET', url, undefined, token, opts);
}

async function sendJson(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  token: string | undefined,
  opts: ApiOptions,
): Promise<unknown> {
  const insecure = token === undefined ? undefined : plainHttpWarning(url);
  if (insecure !== undefined && !warnedOrigins.has(new URL(url).origin)) {
    warnedOrigins.add(new URL(url).origin); // once per server and process, not once per upload
    (opts.warn ?? ((message) => process.stderr.write(`tokentally: ${message}\n`)))(insecure);
  }
  let lastError: ApiError | undefined;
  for (let attempt = 0; attempt < opts.attempts; attempt += 1) {
    let res: RawResponse;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      res = await httpSend(method, url, body === undefined ? undefined : JSON.stringify(body), headers, opts.timeoutMs);
    } catch (err) {
      lastError = new ApiError(`cannot reach ${new URL(url).origin}: ${(err as Error).message}`, 0, true);
      if (attempt + 1 < opts.attempts) {
        const wait = backoff(attempt, opts);
        opts.onRetry?.(wait, 0);
        await opts.sleep(wait);
      }
      continue;
    }
    if (res.status >= 200 && res.status < 300) {
      const text = res.text;
      try {
        return text === '' ? {} : (JSON.parse(text) as unknown);
      } catch {
        throw new ApiError(`the server answered ${res.status} with something that is not JSON`, res.status, false);
      }
    }
    const detail = describe(res);
    if (!RETRYABLE.has(res.status)) throw new ApiError(detail, res.status, false);
    lastError = new ApiError(detail, res.status, true);
    if (attempt + 1 >= opts.attempts) break;
    const retryAfter = parseRetryAfter(res.retryAfter);
    if (retryAfter !== undefined && retryAfter > opts.maxRetryAfterMs) break;
    const wait = retryAfter ?? backoff(attempt, opts);
    opts.onRetry?.(wait, res.status);
    await opts.sleep(wait);
  }
  throw lastError ?? new ApiError('request failed', 0, true);
}

function backoff(attempt: number, opts: ApiOptions): number {
  const base = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** attempt);
  return Math.round(base * (1 + Math.random() * 0.2));
}
