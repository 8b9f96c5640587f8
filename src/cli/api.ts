/**
 * @fileoverview HTTP client for the three endpoints the CLI uses. JSON in and out, problem
 * documents turned into {@link ApiError} with the server's `detail`, and retries with
 * exponential backoff on network errors, 429, 502, 503 and 504 that honour `Retry-After`.
 */

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

async function describe(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
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

/** POST a JSON body (or none) and return the parsed JSON answer of a 2xx response. */
export async function postJson(
  url: string,
  body: unknown,
  token: string | undefined,
  opts: ApiOptions = defaultApiOptions,
): Promise<unknown> {
  let lastError: ApiError | undefined;
  for (let attempt = 0; attempt < opts.attempts; attempt += 1) {
    let res: Response;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      const init: RequestInit = { method: 'POST', headers, signal: AbortSignal.timeout(opts.timeoutMs) };
      if (body !== undefined) init.body = JSON.stringify(body);
      res = await fetch(url, init);
    } catch (err) {
      lastError = new ApiError(`cannot reach ${new URL(url).origin}: ${(err as Error).message}`, 0, true);
      if (attempt + 1 < opts.attempts) {
        const wait = backoff(attempt, opts);
        opts.onRetry?.(wait, 0);
        await opts.sleep(wait);
      }
      continue;
    }
    if (res.ok) {
      const text = await res.text();
      try {
        return text === '' ? {} : (JSON.parse(text) as unknown);
      } catch {
        throw new ApiError(`the server answered ${res.status} with something that is not JSON`, res.status, false);
      }
    }
    const detail = await describe(res);
    if (!RETRYABLE.has(res.status)) throw new ApiError(detail, res.status, false);
    lastError = new ApiError(detail, res.status, true);
    if (attempt + 1 >= opts.attempts) break;
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
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
