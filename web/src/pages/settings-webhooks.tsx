/**
 * @fileoverview Settings: webhooks (docs/webhooks.md). Registers an endpoint (its signing secret
 * shown once, with a copy button), lists them with a disabled notice, sends a test event, shows
 * the recent delivery attempts, deletes one.
 */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { Card, CopyButton, ErrorNote, Skeleton } from '../components/common.js';
import { humanInstant } from '../lib/format.js';
import { browserZone, usePrefs } from '../prefs.js';
import { useLoad } from '../use-api.js';

const EVENTS = [
  'budget.threshold_crossed',
  'usage.daily',
  'device.linked',
  'device.revoked',
  'team.member_joined',
  'team.member_left',
] as const;

type Webhook = Answer<'svc-webhooks'>['webhooks'][number];

function CreateWebhookForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const prefs = usePrefs();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['budget.threshold_crossed', 'usage.daily']);
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      const body = {
        url: url.trim(),
        events,
        scope: 'user',
        tz: prefs.zone ?? browserZone(),
        ...(description.trim() ? { description: description.trim() } : {}),
      };
      const created = await call<Answer<'svc-webhook-create', 'post'>>('svc-webhook-create', { method: 'POST', body });
      setUrl('');
      setDescription('');
      onCreated(created.secret);
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  const toggle = (event: string, on: boolean) =>
    setEvents((list) => (on ? [...list, event] : list.filter((e) => e !== event)));
  return (
    <form className="form" onSubmit={(e) => void submit(e)} data-testid="webhook-form">
      <label className="field">
        <span>Endpoint URL</span>
        <input
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required
          maxLength={2000}
          placeholder="https://…"
        />
      </label>
      <label className="field">
        <span>Description</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={200} />
      </label>
      <fieldset className="field">
        <legend>Events</legend>
        {EVENTS.map((event) => (
          <label key={event} className="check">
            <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} />{' '}
            <code>{event}</code>
          </label>
        ))}
      </fieldset>
      <div className="button-row">
        <button className="btn btn-primary" type="submit" disabled={url.trim() === '' || events.length === 0}>
          Add webhook
        </button>
        <a className="small" href="/docs/webhooks">
          Events, payloads and signatures
        </a>
      </div>
      {error && <ErrorNote message={error} />}
    </form>
  );
}

function Deliveries({ id, zone }: { id: string; zone: string }) {
  const list = useLoad(`webhook-deliveries-${id}`, (signal) =>
    call<Answer<'svc-webhook-deliveries'>>('svc-webhook-deliveries', { params: { id }, signal }),
  );
  if (list.error) return <ErrorNote message={list.error} retry={list.retry} />;
  if (!list.data) return <Skeleton height={40} />;
  if (list.data.deliveries.length === 0) return <p className="muted small">No deliveries yet.</p>;
  const errors = list.data.deliveries.some((d) => d.error !== null);
  return (
    <table className="table small" data-testid="webhook-deliveries">
      <thead>
        <tr>
          <th>Time</th>
          <th>Event</th>
          <th>Status</th>
          <th>Duration</th>
          {errors && <th>Error</th>}
        </tr>
      </thead>
      <tbody>
        {list.data.deliveries.map((d, i) => (
          <tr key={`${d.message_id}-${i}`}>
            <td>{humanInstant(d.attempted_at, zone)}</td>
            <td>
              <code>{d.event}</code>
            </td>
            <td>{d.status_code ?? '—'}</td>
            <td>{d.duration_ms} ms</td>
            {errors && <td>{d.error ?? ''}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WebhookRow({ hook, zone, onChanged }: { hook: Webhook; zone: string; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string>();
  const test = async () => {
    const r = await call<Answer<'svc-webhook-test', 'post'>>('svc-webhook-test', {
      method: 'POST',
      body: { id: hook.id },
    });
    setNote(r.delivered ? `Delivered (${r.status_code ?? ''}).` : `Failed: ${r.error ?? 'no answer'}.`);
  };
  const remove = async () => {
    await call('svc-webhook-delete', { method: 'POST', body: { id: hook.id } });
    onChanged();
  };
  return (
    <li className="device" data-testid="webhook-row">
      <div>
        <div className="device-name">
          <code>{hook.url}</code>
        </div>
        <div className="muted small">
          {hook.description ? `${hook.description} · ` : ''}
          {hook.events.join(', ')}
        </div>
        {hook.disabled_at && (
          <div className="error-text small" role="status">
            Disabled {humanInstant(hook.disabled_at, zone)} after failing for 24 hours. Delete it and add it again once
            the endpoint works.
          </div>
        )}
        {!hook.disabled_at && hook.failing_since && (
          <div className="warn-text small">Failing since {humanInstant(hook.failing_since, zone)}.</div>
        )}
        {note && (
          <div className="small" role="status">
            {note}
          </div>
        )}
        {open && <Deliveries id={hook.id} zone={zone} />}
      </div>
      <div className="device-actions">
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => void test()}
          disabled={hook.disabled_at !== null}
        >
          Send test
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => void remove()}>
          Delete
        </button>
      </div>
    </li>
  );
}

export function WebhooksPanel() {
  const prefs = usePrefs();
  const zone = prefs.zone ?? browserZone();
  const [version, setVersion] = useState(0);
  const list = useLoad(`webhooks-${version}`, (signal) => call<Answer<'svc-webhooks'>>('svc-webhooks', { signal }));
  const [secret, setSecret] = useState<string>();
  const refresh = () => setVersion((v) => v + 1);
  return (
    <Card id="webhooks" title="Webhooks">
      <p className="muted small">
        Tokentally POSTs signed events (Standard Webhooks) to your HTTPS endpoints: budget alerts, a daily usage summary
        and device changes.
      </p>
      <CreateWebhookForm onCreated={(s) => (setSecret(s), refresh())} />
      {secret && (
        <div className="note note-ok new-token" role="status" data-testid="webhook-secret">
          <span>Copy the signing secret now: it is shown this once.</span>
          <label className="field new-token-value">
            <span className="sr-only">Signing secret</span>
            <input readOnly value={secret} onFocus={(e) => e.target.select()} />
          </label>
          <div className="button-row">
            <CopyButton text={secret} label="Copy secret" />
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setSecret(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      {list.error && <ErrorNote message={list.error} retry={list.retry} />}
      {!list.data && !list.error && <Skeleton height={60} />}
      {list.data && list.data.webhooks.length === 0 && <p className="muted">No webhooks yet.</p>}
      {list.data && list.data.webhooks.length > 0 && (
        <ul className="device-list" data-testid="webhook-list">
          {list.data.webhooks.map((h) => (
            <WebhookRow key={h.id} hook={h} zone={zone} onChanged={refresh} />
          ))}
        </ul>
      )}
    </Card>
  );
}
