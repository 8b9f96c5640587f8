/**
 * @fileoverview bench:ingest's BENCH_BUDGETS and BENCH_WEBHOOKS (default 0): budgets and webhooks
 * registered before the load, to measure what they cost uploads (docs/benchmarks.md). Every
 * uploading user gets a weekly and a monthly budget (in billable tokens, far above what the bench
 * uploads, so every upload's check reads both) and up to 20 webhooks; the rest go to other accounts
 * made for them, two budgets and 20 webhooks each. Webhooks point at a closed local port (the
 * server runs with WEBHOOK_ALLOW_PRIVATE=true; its jobs, so its delivery worker, are off).
 */
export const BENCH_BUDGETS = Number(process.env.BENCH_BUDGETS ?? 0);
export const BENCH_WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? BENCH_BUDGETS);

const HOOKS_PER_USER = 20;

async function post<T>(url: string, body: unknown, bearer?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Registers up to `budgets` budgets and `webhooks` webhooks: on `uploaders` (their access tokens) first, then on new accounts. */
export async function registerNotifications(
  base: string,
  uploaders: readonly string[],
  budgets = BENCH_BUDGETS,
  webhooks = BENCH_WEBHOOKS,
): Promise<void> {
  if (budgets <= 0 && webhooks <= 0) return;
  let budgetsLeft = budgets;
  let hooksLeft = webhooks;
  const equip = async (token: string) => {
    for (const period of ['week', 'month']) {
      if (budgetsLeft <= 0) break;
      budgetsLeft--;
      await post(
        `${base}/functions/svc-budget-set`,
        { scope: 'user', period, limit_tokens: '1000000000000000' },
        token,
      );
    }
    for (let i = 0; i < HOOKS_PER_USER && hooksLeft > 0; i++) {
      hooksLeft--;
      await post(
        `${base}/functions/svc-webhook-create`,
        { url: `http://127.0.0.1:9/hook-${i}`, events: ['budget.threshold_crossed', 'usage.daily'], scope: 'user' },
        token,
      );
    }
  };
  for (const token of uploaders) await equip(token);
  for (let n = 0; budgetsLeft > 0 || hooksLeft > 0; n++) {
    const session = await post<{ access_token: string }>(`${base}/auth/v1/signup`, {
      email: `bench-notify${n}@example.com`,
      password: 'bench password',
    });
    await equip(session.access_token);
  }
  console.log(`  registered ${budgets} budgets and ${webhooks} webhooks`);
}
