/**
 * @fileoverview One HTTP POST of a webhook delivery: signed by Standard Webhooks (`standardwebhooks`),
 * to an address checked against the refused ranges (domain/addresses.ts) at connection time (the
 * address the name resolves to when connecting is the one checked, so a name cannot resolve to a
 * public address when registered and a private one when delivered), 10 s time-out in all,
 * redirects not followed (a 3xx is a failure).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isRefusedAddress } from '../domain/addresses.js';

/** How long one delivery may take, connection to last byte of the answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface SendResult {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** Why a URL may not receive webhooks (scheme), or undefined when its scheme is acceptable. */
export function urlProblem(url: string, allowPrivate: boolean): string | undefined {
  if (!URL.canParse(url)) return 'is not a URL';
  const u = new URL(url);
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) return 'must be an https:// URL';
  if (u.username !== '' || u.password !== '') return 'may not carry credentials';
  if (u.hostname === '') return 'has no host';
  return undefined;
}

/** The host's addresses, or why it may not be delivered to (a refused range, or it does not resolve). */
export async function addressProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0)
    return isRefusedAddress(host) ? 'points to a private, loopback or link-local address' : undefined;
  const addresses = await new Promise<LookupAddress[] | Error>((resolve) =>
    dnsLookup(host, { all: true }, (error, found) => resolve(error ?? found)),
  );
  if (addresses instanceof Error) return 'does not resolve';
  if (addresses.length === 0 || addresses.some((a) => isRefusedAddress(a.address)))
    return 'resolves to a private, loopback or link-local address';
  return undefined;
}

/** A DNS lookup that fails for refused addresses (used when connecting). */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((a) => isRefusedAddress(a.address));
    if (bad || list.length === 0) {
      const refused = Object.assign(new Error('the address is in a refused range'), { code: 'EREFUSEDADDR' });
      return callback(refused, '', 4);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

/** The signed headers of one attempt at `nowMs`. */
export function signedHeaders(secret: string, messageId: string, nowMs: number, body: string): Record<string, string> {
  const at = new Date(Math.floor(nowMs / 1000) * 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Tokentally-Webhooks/1',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}

/** POSTs `body` to `url` with `headers`; never throws. */
export async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const scheme = urlProblem(url, allowPrivate);
  if (scheme !== undefined) return done(null, `the URL ${scheme}`);
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && isRefusedAddress(host))
    return done(null, 'the URL points to a private, loopback or link-local address');
  const client = u.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = client.request(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(allowPrivate ? {} : { lookup: checkedLookup }),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        response.on('end', () => {
          clearTimeout(timer);
          resolve(done(status, status >= 200 && status < 300 ? null : `HTTP ${status}`));
        });
        response.on('error', (e) => {
          clearTimeout(timer);
          resolve(done(status, e.message));
        });
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('error', (e: Error & { code?: string }) => {
      clearTimeout(timer);
      resolve(done(null, e.code === 'EREFUSEDADDR' ? 'the URL resolves to a refused address' : e.message));
    });
    request.end(body);
  });
}
