/**
 * @fileoverview Calls to /functions/svc-*: the user's token as bearer, problem documents turned
 * into words (`detail`), 429 waits for Retry-After and tries again.
 */
import { accessToken, sessionRejected } from './auth.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Params = Record<string, string | number | undefined | null>;

function url(op: string, params: Params = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `/functions/${op}${s ? `?${s}` : ''}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function problemText(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { detail?: string; msg?: string; title?: string };
    return body.detail ?? body.msg ?? body.title ?? `The server answered ${res.status}.`;
  } catch {
    return `The server answered ${res.status} ${res.statusText}.`;
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  params?: Params;
  body?: unknown;
  /** A bearer other than the signed-in user's (a share token), or null for none. */
  bearer?: string | null;
  signal?: AbortSignal;
}

/** The answer to a call that succeeded (2xx); anything else is thrown as an ApiError. */
async function request(op: string, options: CallOptions): Promise<Response> {
  let refreshed = false;
  for (let attempt = 0; ; attempt++) {
    const token = options.bearer === undefined ? await accessToken() : options.bearer;
    const headers: Record<string, string> = {};
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url(op, options.params), {
        method: options.method ?? 'GET',
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiError(0, 'The server cannot be reached. Check your connection and retry.');
    }
    if (res.ok) return res;
    if (res.status === 429 && attempt < 3) {
      const wait = Number(res.headers.get('retry-after') ?? '1');
      await sleep(Math.min(60, Number.isFinite(wait) && wait > 0 ? wait : 1) * 1000);
      continue;
    }
    if (res.status === 401 && options.bearer === undefined && !refreshed) {
      refreshed = true;
      if (await sessionRejected()) continue;
    }
    throw new ApiError(res.status, await problemText(res));
  }
}

export async function call<T>(op: string, options: CallOptions = {}): Promise<T> {
  return (await (await request(op, options)).json()) as T;
}

/** A file answer (an attachment): its bytes and the file name the server suggests, if any. */
export async function download(
  op: string,
  options: CallOptions = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const res = await request(op, options);
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"\\/]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await res.blob(), filename };
}
