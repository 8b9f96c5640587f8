/** @fileoverview Shortcuts that act as a user or a device through the real HTTP interface. */
import { expect } from 'vitest';
import type { TestApp } from './app.js';

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export async function signUp(
  t: TestApp,
  email = `user${++counter}-${Date.now()}@example.com`,
  password = 'correct horse',
): Promise<TestUser> {
  return sessionOf(await t.app.inject({ method: 'POST', url: '/auth/v1/signup', payload: { email, password } }), email);
}

/** A new session of an existing user (password sign-in). */
export async function signIn(t: TestApp, email: string, password = 'correct horse'): Promise<TestUser> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    payload: { email, password },
  });
  return sessionOf(res, email);
}

/** The session a sign-up or sign-in answered. */
function sessionOf(res: Awaited<ReturnType<TestApp['app']['inject']>>, email: string): TestUser {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ access_token: string; refresh_token: string; user: { id: string } }>();
  return { id: body.user.id, email, accessToken: body.access_token, refreshToken: body.refresh_token };
}

export async function issueDevice(
  t: TestApp,
  user: TestUser,
  name = 'laptop',
): Promise<{ token: string; deviceId: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/functions/svc-device-token-issue',
    headers: { authorization: `Bearer ${user.accessToken}` },
    payload: { device_name: name, platform: 'linux' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ token: string; device_id: string }>();
  return { token: body.token, deviceId: body.device_id };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export interface BucketInput {
  hour_start: string;
  source?: string;
  model?: string;
  input_tokens?: number;
  cached_input_tokens?: number;
  output_tokens?: number;
  reasoning_output_tokens?: number;
  total_tokens: number;
  project_key?: string;
  project_ref?: string;
}

export async function ingest(
  t: TestApp,
  deviceToken: string,
  hourly: BucketInput[],
  extra: Record<string, unknown> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/functions/svc-ingest',
    headers: bearer(deviceToken),
    payload: { hourly, ...extra },
  });
}

/** The day bound a test app needs to take {@link trillionBuckets} from ten devices (each UTC day holds ~2·10^15 billable tokens). */
export const TRILLION_DAY_BOUND = { INGEST_MAX_TOKENS_PER_USER_DAY: '9000000000000000' };

/** 500 consecutive half-hours from 2026-10-01 of 10^12 tokens in every count: a device of these puts sums past 2^53. */
export function trillionBuckets(): BucketInput[] {
  const big = 1_000_000_000_000;
  return Array.from({ length: 500 }, (_, i) => ({
    hour_start: new Date(Date.UTC(2026, 9, 1) + i * 1_800_000).toISOString(),
    source: 'claude',
    model: 'claude-opus-4',
    input_tokens: big,
    cached_input_tokens: big,
    output_tokens: big,
    reasoning_output_tokens: big,
    total_tokens: big,
  }));
}
