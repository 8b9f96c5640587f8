/**
 * @fileoverview Settings: personal API tokens (docs/api-tokens.md). Lists the user's read-only
 * tokens (name, created, expires, last used), creates one (shown once, with a copy button) and
 * revokes one after a confirmation.
 */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { Card, CopyButton, ErrorNote, Skeleton } from '../components/common.js';
import { humanInstant, relativeTime } from '../lib/format.js';
import { browserZone, usePrefs } from '../prefs.js';
import { useLoad } from '../use-api.js';
import { useNow } from '../use-now.js';

export type ApiToken = Answer<'svc-api-tokens'>['tokens'][number];
type CreatedToken = Answer<'svc-api-token-create', 'post'>;

const EXPIRIES: Array<[string, string]> = [
  ['', 'Never'],
  ['30', '30 days'],
  ['90', '90 days'],
  ['365', '365 days'],
];

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState('90');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return;
    setBusy(true);
    setError(undefined);
    try {
      const body = { name: name.trim(), ...(days ? { expires_in_days: Number(days) } : {}) };
      onCreated(await call<CreatedToken>('svc-api-token-create', { method: 'POST', body }));
      setName('');
    } catch (failed) {
      setError((failed as Error).message);
    }
    setBusy(false);
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} data-testid="api-token-form">
      <div className="inline-form">
        <label className="field">
          <span>Token name</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            required
            placeholder="e.g. Grafana, my agent"
          />
        </label>
        <label className="field">
          <span>Expires</span>
          <select value={days} onChange={(e) => setDays(e.target.value)}>
            {EXPIRIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="button-row">
        <button className="btn btn-primary" type="submit" disabled={busy || name.trim() === ''}>
          {busy ? 'Creating…' : 'Create token'}
        </button>
      </div>
      {error && <ErrorNote message={error} />}
    </form>
  );
}

function NewToken({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  return (
    <div className="note note-ok new-token" role="status" data-testid="api-token-new">
      <span>
        <strong>{created.name}</strong>: copy the token now. It is shown this once and cannot be seen again.
      </span>
      <label className="field new-token-value">
        <span className="sr-only">The new token</span>
        <input readOnly value={created.token} onFocus={(e) => e.target.select()} data-testid="api-token-value" />
      </label>
      <div className="button-row">
        <CopyButton text={created.token} label="Copy token" />
        <button type="button" className="btn btn-small btn-ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function TokenRow({
  token,
  zone,
  now,
  onRevoked,
}: {
  token: ApiToken;
  zone: string;
  now: number;
  onRevoked: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const expired = token.expires_at !== null && Date.parse(token.expires_at) <= now;
  const revoke = async () => {
    setError(undefined);
    try {
      await call('svc-api-token-revoke', { method: 'POST', body: { id: token.id } });
      setConfirming(false);
      onRevoked();
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  return (
    <li className="device" data-testid="api-token-row">
      <div>
        <div className="device-name">{token.name}</div>
        <div className="muted small">created {humanInstant(token.created_at, zone)}</div>
      </div>
      <dl className="device-facts">
        <div>
          <dt>Expires</dt>
          <dd title={humanInstant(token.expires_at, zone)} className={expired ? 'error-text' : undefined}>
            {token.expires_at === null ? 'never' : expired ? 'expired' : relativeTime(token.expires_at, now)}
          </dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd title={humanInstant(token.last_used_at, zone)}>{relativeTime(token.last_used_at, now)}</dd>
        </div>
      </dl>
      <div className="device-actions">
        {confirming ? (
          <>
            <span className="small">Revoke {token.name}? What uses it stops at once.</span>
            <button type="button" className="btn btn-small btn-danger" onClick={() => void revoke()}>
              Revoke
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-ghost-danger"
            onClick={() => setConfirming(true)}
            aria-label={`Revoke ${token.name}`}
          >
            Revoke
          </button>
        )}
      </div>
      {error && <ErrorNote message={error} />}
    </li>
  );
}

export function ApiTokensPanel() {
  const prefs = usePrefs();
  const zone = prefs.zone ?? browserZone();
  const [version, setVersion] = useState(0);
  const list = useLoad(`api-tokens-${version}`, (signal) =>
    call<Answer<'svc-api-tokens'>>('svc-api-tokens', { signal }),
  );
  const [created, setCreated] = useState<CreatedToken>();
  const now = useNow(30_000);
  const refresh = () => setVersion((v) => v + 1);
  return (
    <Card id="api-tokens" title="API tokens">
      <p className="muted small flush">
        Read-only tokens for scripts, dashboards and agents: they read your usage, status and export, and can change
        nothing. Send one as <code>Authorization: Bearer tt_pat_…</code>.
      </p>
      <CreateTokenForm onCreated={(c) => (setCreated(c), refresh())} />
      {created && <NewToken created={created} onDone={() => setCreated(undefined)} />}
      {list.error && <ErrorNote message={list.error} retry={list.retry} />}
      {!list.data && !list.error && <Skeleton height={60} />}
      {list.data && list.data.tokens.length === 0 && <p className="muted">No API tokens yet.</p>}
      {list.data && list.data.tokens.length > 0 && (
        <ul className="device-list" data-testid="api-token-list">
          {list.data.tokens.map((t) => (
            <TokenRow key={t.id} token={t} zone={zone} now={now} onRevoked={refresh} />
          ))}
        </ul>
      )}
    </Card>
  );
}
