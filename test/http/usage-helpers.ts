/** @fileoverview The fixed data set of the analytics tests and small helpers to read the endpoints. */
import { expect } from 'vitest';
import type { BucketInput, TestUser } from '../helpers/actors.js';
import { bearer } from '../helpers/actors.js';
import type { TestApp } from '../helpers/app.js';

/** Named buckets; the comments give their local times in the zones the tests use. */
export const B = {
  /** 2026-03-07 18:30 New York, 2026-03-08 08:30 Tokyo, 05:00 Kolkata. */
  b3: {
    hour_start: '2026-03-07T23:30:00Z',
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 10,
    output_tokens: 20,
    total_tokens: 30,
  },
  /** 2026-03-08 01:30-05:00 New York (just before the spring-forward gap). */
  b1: {
    hour_start: '2026-03-08T06:30:00Z',
    source: 'codex',
    model: 'gpt-5-2025-08-07',
    input_tokens: 1000,
    cached_input_tokens: 400,
    output_tokens: 200,
    reasoning_output_tokens: 50,
    total_tokens: 1200,
  },
  /** 2026-03-08 03:00-04:00 New York (first bucket after the gap). */
  b2: {
    hour_start: '2026-03-08T07:00:00Z',
    source: 'claude',
    model: 'claude-sonnet-4-5',
    input_tokens: 100,
    cached_input_tokens: 1000,
    output_tokens: 50,
    total_tokens: 1150,
  },
  /** 2026-03-08 23:45 Kathmandu / 23:30 Kolkata (straddles Kathmandu midnight: counts on the 8th). */
  b4: {
    hour_start: '2026-03-08T18:00:00Z',
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 2000,
    output_tokens: 100,
    reasoning_output_tokens: 10,
    total_tokens: 2100,
  },
  /** 2026-03-09 00:00 Kolkata, 00:15 Kathmandu, 03:30 Tokyo; still the 8th in UTC and New York. */
  b5: {
    hour_start: '2026-03-08T18:30:00Z',
    source: 'codex',
    model: 'openai/gpt-5',
    input_tokens: 5,
    output_tokens: 5,
    total_tokens: 10,
  },
  /** 2026-10-31 23:30-04:00 New York (October there), November in UTC. */
  b9: {
    hour_start: '2026-11-01T03:30:00Z',
    source: 'gemini',
    model: 'gemini-2.5-pro',
    input_tokens: 300,
    output_tokens: 3,
    total_tokens: 303,
  },
  /** 2026-11-01 01:30-04:00 New York (first pass of the repeated hour). */
  b6: {
    hour_start: '2026-11-01T05:30:00Z',
    source: 'gemini',
    model: 'gemini-2.5-pro',
    input_tokens: 40,
    output_tokens: 4,
    total_tokens: 44,
  },
  /** 2026-11-01 01:30-05:00 New York (second pass). */
  b7: {
    hour_start: '2026-11-01T06:30:00Z',
    source: 'gemini',
    model: 'gemini-2.5-pro',
    input_tokens: 500,
    output_tokens: 5,
    total_tokens: 505,
  },
} satisfies Record<string, BucketInput>;

export type BucketName = keyof typeof B;

/** Billable tokens of a fixture bucket under the ingest rule (codex: input + output; claude: all four; else total). */
export function billableOf(b: BucketInput): bigint {
  const i = BigInt(b.input_tokens ?? 0);
  const c = BigInt(b.cached_input_tokens ?? 0);
  const o = BigInt(b.output_tokens ?? 0);
  const r = BigInt(b.reasoning_output_tokens ?? 0);
  if (b.source === 'codex' || b.source === 'every-code') return i + o;
  if (b.source === 'claude' || b.source === 'opencode') return i + c + o + r;
  return BigInt(b.total_tokens);
}

/** The six token fields of a set of fixture buckets, as the wire carries them. */
export function wireTotals(names: readonly BucketName[]): Record<string, string> {
  let total = 0n,
    billable = 0n,
    input = 0n,
    cached = 0n,
    output = 0n,
    reasoning = 0n;
  for (const n of names) {
    const b: BucketInput = B[n];
    total += BigInt(b.total_tokens);
    billable += billableOf(b);
    input += BigInt(b.input_tokens ?? 0);
    cached += BigInt(b.cached_input_tokens ?? 0);
    output += BigInt(b.output_tokens ?? 0);
    reasoning += BigInt(b.reasoning_output_tokens ?? 0);
  }
  return {
    total_tokens: String(total),
    billable_total_tokens: String(billable),
    input_tokens: String(input),
    cached_input_tokens: String(cached),
    output_tokens: String(output),
    reasoning_output_tokens: String(reasoning),
  };
}

export const ZERO = wireTotals([]);

/** GETs an analytics endpoint as `user` and returns status and JSON body. */
export async function get(
  t: TestApp,
  user: TestUser | string,
  op: string,
  query: Record<string, string | number> = {},
) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const token = typeof user === 'string' ? user : user.accessToken;
  const res = await t.app.inject({
    method: 'GET',
    url: `/functions/svc-${op}${qs ? `?${qs}` : ''}`,
    headers: bearer(token),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>(), raw: res };
}

/** GETs and expects 200. */
export async function ok<T = Record<string, unknown>>(
  t: TestApp,
  user: TestUser,
  op: string,
  query: Record<string, string | number> = {},
): Promise<T> {
  const r = await get(t, user, op, query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as T;
}

/** Picks the six token fields of a row. */
export function tokens(row: Record<string, unknown>): Record<string, unknown> {
  const keys = [
    'total_tokens',
    'billable_total_tokens',
    'input_tokens',
    'cached_input_tokens',
    'output_tokens',
    'reasoning_output_tokens',
  ];
  return Object.fromEntries(keys.map((k) => [k, row[k]]));
}
