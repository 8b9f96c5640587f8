/**
 * @fileoverview The Admin page (instance admins only; docs/running-for-a-group.md): the accounts
 * (search, disable/enable, make/revoke admin, a password reset link to hand over, delete with
 * confirmation), then invites and the
 * sign-up settings (admin-invites.tsx).
 */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { Card, ErrorNote, Skeleton } from '../components/common.js';
import { humanInstant } from '../lib/format.js';
import { browserZone, usePrefs } from '../prefs.js';
import { useLoad } from '../use-api.js';
import { Invites, SignupSettings } from './admin-invites.js';

export type AdminUser = Answer<'svc-admin-users'>['users'][number];

const PAGE = 50;

function UserRow({ user, zone, onChanged }: { user: AdminUser; zone: string; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [resetLink, setResetLink] = useState<Answer<'svc-admin-reset-link', 'post'>>();
  const makeResetLink = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setResetLink(
        await call<Answer<'svc-admin-reset-link', 'post'>>('svc-admin-reset-link', {
          method: 'POST',
          body: { user_id: user.id },
        }),
      );
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const act = async (op: string, body: Record<string, unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await call(op, { method: 'POST', body: { user_id: user.id, ...body } });
      setConfirming(false);
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const who = user.email ?? user.display_name ?? user.id;
  return (
    <tr>
      <th scope="row">
        <div>{user.email ?? <span className="muted">(external sign-in)</span>}</div>
        {user.display_name && <div className="muted small">{user.display_name}</div>}
        {error && <ErrorNote message={error} />}
        {resetLink && (
          <label className="field small">
            <span>
              Password reset link for {who}: works once, until {humanInstant(resetLink.expires_at, zone)}. Hand it over
              privately.
            </span>
            <input readOnly value={resetLink.url} onFocus={(e) => e.currentTarget.select()} />
          </label>
        )}
      </th>
      <td>{humanInstant(user.created_at, zone)}</td>
      <td>{user.last_upload_at ? humanInstant(user.last_upload_at, zone) : '—'}</td>
      <td className="num">{user.devices}</td>
      <td className="num">{BigInt(user.tokens_this_month).toLocaleString()}</td>
      <td className="num">${Number(user.cost_this_month_usd).toFixed(2)}</td>
      <td>
        {user.admin && <span className="badge">admin</span>} {user.disabled && <span className="badge">disabled</span>}
      </td>
      <td>
        {confirming ? (
          <span className="row-actions">
            <span className="small">Delete {who} and all their usage?</span>
            <button
              type="button"
              className="btn btn-small btn-danger"
              disabled={busy}
              onClick={() => void act('svc-admin-user-delete', {})}
            >
              Delete
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <span className="row-actions">
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={() => void act('svc-admin-user-update', { disabled: !user.disabled })}
              aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${who}`}
            >
              {user.disabled ? 'Enable' : 'Disable'}
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={() => void act('svc-admin-user-update', { admin: !user.admin })}
              aria-label={`${user.admin ? 'Revoke admin of' : 'Make admin'} ${who}`}
            >
              {user.admin ? 'Revoke admin' : 'Make admin'}
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              onClick={() => void makeResetLink()}
              aria-label={`Make a password reset link for ${who}`}
            >
              Reset link
            </button>
            <button
              type="button"
              className="btn btn-small btn-ghost-danger"
              onClick={() => setConfirming(true)}
              aria-label={`Delete ${who}`}
            >
              Delete
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}

function Users({ zone }: { zone: string }) {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [version, setVersion] = useState(0);
  const list = useLoad(`admin-users-${q}-${offset}-${version}`, (signal) =>
    call<Answer<'svc-admin-users'>>('svc-admin-users', { params: { q, limit: PAGE, offset }, signal }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setOffset(0);
    setQ(search.trim());
  };
  const total = list.data?.total ?? 0;
  return (
    <Card id="admin-users" title="Accounts">
      <form className="inline-form" role="search" onSubmit={submit}>
        <label>
          <span className="sr-only">Search by e-mail address</span>
          <input
            type="search"
            placeholder="Search by e-mail"
            value={search}
            maxLength={320}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <button className="btn btn-small" type="submit">
          Search
        </button>
      </form>
      {list.error && <ErrorNote message={list.error} retry={list.retry} />}
      {!list.data && !list.error && <Skeleton height={160} />}
      {list.data && list.data.users.length === 0 && <p className="muted">No account matches.</p>}
      {list.data && list.data.users.length > 0 && (
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Created</th>
                <th scope="col">Last upload</th>
                <th scope="col" className="num">
                  Devices
                </th>
                <th scope="col" className="num">
                  Tokens this month
                </th>
                <th scope="col" className="num">
                  Cost this month
                </th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((u) => (
                <UserRow key={u.id} user={u} zone={zone} onChanged={() => setVersion((v) => v + 1)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE && (
        <p className="muted small">
          {offset + 1}–{Math.min(offset + PAGE, total)} of {total}{' '}
          <button
            type="button"
            className="btn btn-small btn-ghost"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE))}
          >
            Previous
          </button>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            disabled={offset + PAGE >= total}
            onClick={() => setOffset(offset + PAGE)}
          >
            Next
          </button>
        </p>
      )}
    </Card>
  );
}

export function AdminPage() {
  const prefs = usePrefs();
  const zone = prefs.zone ?? browserZone();
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Admin</h1>
          <p className="muted">The accounts of this server, invites and who may sign up.</p>
        </div>
      </div>
      <Users zone={zone} />
      <Invites zone={zone} />
      <SignupSettings />
    </div>
  );
}
