/**
 * @fileoverview The body of the served webhooks guide (/docs/webhooks, discovery-docs.ts wraps it
 * in the guides' page): every event with an example payload, the Standard Webhooks signature and
 * how to verify it (with the `standardwebhooks` library and by hand), retries, ordering and where
 * deliveries may go. docs/webhooks.md is the same guide for the repository.
 */

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const json = (value: unknown) => `<pre><code>${esc(JSON.stringify(value, null, 2))}</code></pre>`;
const AT = '2026-11-28T07:00:03.000Z';
const USER = '6f1c2f3e-1b9d-4c55-9d2a-0c1b2a3d4e5f';

const EVENTS: { type: string; when: string; data: unknown }[] = [
  {
    type: 'budget.threshold_crossed',
    when: "a budget's spend in its current week or month reached one of its thresholds (once per budget, period and threshold)",
    data: {
      budget_id: '0b6d6c0e-5f57-4a8a-9f0e-2d1f3f0b9c11',
      scope: 'user',
      user_id: USER,
      team_id: null,
      period: 'month',
      period_start: '2026-10-31T23:00:00.000Z',
      period_end: '2026-11-30T23:00:00.000Z',
      threshold_percent: 80,
      limit_usd: '250.000000',
      limit_tokens: null,
      spend_usd: '201.734512',
      spend_tokens: '48211937',
    },
  },
  {
    type: 'device.linked',
    when: 'a device was linked to the account (link code or device token issued)',
    data: { user_id: USER, device_id: 'c7c0d9a4-2d7e-4a3f-8f61-5b6f0a1e2d3c', platform: 'darwin', at: AT },
  },
  {
    type: 'device.revoked',
    when: "a device's token was revoked (its uploads stay)",
    data: { user_id: USER, device_id: 'c7c0d9a4-2d7e-4a3f-8f61-5b6f0a1e2d3c', platform: null, at: AT },
  },
  {
    type: 'team.member_joined',
    when: 'someone joined the team (team endpoints only)',
    data: { team_id: 'b1d8a1d2-8f0e-4e0b-9a57-1f2e3d4c5b6a', user_id: USER, role: 'member', at: AT },
  },
  {
    type: 'team.member_left',
    when: 'a member left or was removed (team endpoints only)',
    data: { team_id: 'b1d8a1d2-8f0e-4e0b-9a57-1f2e3d4c5b6a', user_id: USER, role: null, at: AT },
  },
  {
    type: 'usage.daily',
    when: "shortly after midnight in the endpoint's zone (tz at registration): the previous local day's totals, by source and model (a team endpoint: its members together)",
    data: {
      scope: 'user',
      user_id: USER,
      team_id: null,
      date: '2026-11-27',
      tz: 'Europe/Paris',
      from: '2026-11-26T23:00:00.000Z',
      to: '2026-11-27T23:00:00.000Z',
      totals: {
        total_tokens: '1510',
        billable_total_tokens: '1510',
        input_tokens: '1500',
        cached_input_tokens: '0',
        output_tokens: '10',
        reasoning_output_tokens: '0',
        cost_usd: '0.004350',
      },
      by_source_model: [
        {
          source: 'claude',
          model: 'claude-sonnet-4',
          total_tokens: '1000',
          billable_total_tokens: '1000',
          input_tokens: '1000',
          cached_input_tokens: '0',
          output_tokens: '0',
          reasoning_output_tokens: '0',
          cost_usd: '0.003000',
        },
      ],
    },
  },
];

const eventSections = EVENTS.map(
  (e) => `<h3><code>${e.type}</code></h3>
<p>Sent when ${esc(e.when)}.</p>
${json({ type: e.type, timestamp: AT, data: e.data })}`,
).join('\n');

export const WEBHOOKS_GUIDE = `<h1>Webhooks</h1>
<p>Tokentally POSTs events to HTTPS endpoints you register: budget alerts, devices linked and revoked, team members
joining and leaving, and a daily usage summary. Deliveries follow the
<a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification, so its libraries verify them.</p>

<h2>Registering an endpoint</h2>
<p><code>POST /functions/svc-webhook-create</code> with a user JWT and
<code>{"url": "https://…", "events": ["usage.daily"], "scope": "user", "description": "…", "tz": "Europe/Paris"}</code>
answers <code>{"id", "secret", "webhook"}</code>. The secret (<code>whsec_…</code>) is shown this once; keep it. A team's
owners and admins register endpoints for the team with <code>"scope": "team", "team_id": "…"</code>.
<code>GET svc-webhooks</code> lists them, <code>POST svc-webhook-delete {id}</code> removes one,
<code>POST svc-webhook-test {id}</code> sends a <code>webhook.test</code> event now and answers how it went, and
<code>GET svc-webhook-deliveries?id=…</code> lists the recent attempts (time, event, status code, duration, error).</p>

<h2>Every delivery</h2>
<p>A <code>POST</code> with <code>Content-Type: application/json</code>, the body <code>{"type", "timestamp", "data"}</code>, and three headers:</p>
<table>
<tr><th>Header</th><th>Value</th></tr>
<tr><td><code>webhook-id</code></td><td>The message's id (<code>msg_…</code>), the same on every retry: use it to drop duplicates.</td></tr>
<tr><td><code>webhook-timestamp</code></td><td>Seconds since the Unix epoch when this attempt was signed.</td></tr>
<tr><td><code>webhook-signature</code></td><td><code>v1,</code> and the base64 HMAC-SHA256 of <code>id.timestamp.body</code> under the secret.</td></tr>
</table>
<p>Answer any 2xx within 10 seconds to acknowledge it. Token counts are decimal strings (they can exceed 2^53), costs
decimal US dollars with six places.</p>

<h2>Events</h2>
${eventSections}

<h2>Verifying the signature</h2>
<p>With the library (<code>npm install standardwebhooks</code>; there are ports for Python, Go, Ruby, Java, …):</p>
<pre><code>import { Webhook } from 'standardwebhooks';
const wh = new Webhook(process.env.TOKENTALLY_WEBHOOK_SECRET); // whsec_…
// rawBody: the request body exactly as received (do not re-serialise parsed JSON)
const event = wh.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
}); // throws when the signature is wrong or the timestamp is more than 5 minutes off</code></pre>
<p>By hand: base64-decode the secret after its <code>whsec_</code> prefix; compute HMAC-SHA256 over
<code>webhook-id + "." + webhook-timestamp + "." + rawBody</code>; base64-encode it; compare it, in constant time, with
each space-separated <code>v1,</code> entry of <code>webhook-signature</code>; refuse timestamps far from your clock.</p>
<pre><code>import { createHmac, timingSafeEqual } from 'node:crypto';
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest('base64');
const ok = signatureHeader.split(' ').some((s) => {
  const [version, sig] = s.split(',');
  return version === 'v1' &amp;&amp; sig.length === expected.length &amp;&amp; timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
});</code></pre>

<h2>Retries and ordering</h2>
<ul>
<li>Events are written to an outbox in the database in the same transaction as what raised them (the alert, the
device), so they survive restarts; any instance of the server delivers them, each message claimed by one.</li>
<li>Delivery is at least once: a non-2xx answer, a redirect (never followed), a connection error or no answer within
10 s is retried with exponential back-off (5 s, 20 s, 80 s, … up to 6 h between attempts) for 24 hours after the event,
with the same <code>webhook-id</code>. Deduplicate on it.</li>
<li>Order is not guaranteed: messages are attempted oldest first, but a retried message can arrive after newer ones.
Use <code>timestamp</code> and the data's own times.</li>
<li>An endpoint whose deliveries have failed for 24 hours is disabled: it gets nothing more, and its owner sees a notice
in the dashboard. Delete it and register it again once it works.</li>
</ul>

<h2>Where deliveries may go</h2>
<p>URLs must be <code>https://</code>. Hosts that resolve to loopback, private, carrier-grade NAT, link-local (which
includes cloud metadata at 169.254.169.254) or other reserved addresses are refused when registering and again at
every delivery (the address connected to is the one checked). A server run with <code>WEBHOOK_ALLOW_PRIVATE=true</code>
allows plain <code>http://</code> and such addresses, for development and tests.</p>`;
