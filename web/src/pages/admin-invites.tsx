/** @fileoverview The Admin page's invites (create, copy the link, revoke) and sign-up settings. */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { Card, CodeBlock, ErrorNote, Skeleton } from '../components/common.js';
import { humanInstant } from '../lib/format.js';
import { useLoad } from '../use-api.js';

type SignupSettings = Answer<'svc-admin-settings'>;
type Mode = SignupSettings['signup_mode'];

export function Invites({ zone }: { zone: string }) {
  const [version, setVersion] = useState(0);
  const list = useLoad(`admin-invites-${version}`, (signal) =>
    call<Answer<'svc-admin-invites'>>('svc-admin-invites', { signal }),
  );
  const [hours, setHours] = useState('168');
  const [uses, setUses] = useState('1');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<Answer<'svc-admin-invite-create', 'post'>>();
  const [error, setError] = useState<string>();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      const body = {
        expires_in_hours: Number(hours),
        max_uses: Number(uses),
        ...(email.trim() ? { email: email.trim() } : {}),
      };
      setCreated(
        await call<Answer<'svc-admin-invite-create', 'post'>>('svc-admin-invite-create', { method: 'POST', body }),
      );
      setVersion((v) => v + 1);
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  const revoke = async (id: string) => {
    setError(undefined);
    try {
      await call('svc-admin-invite-revoke', { method: 'POST', body: { id } });
      setVersion((v) => v + 1);
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  return (
    <Card id="admin-invites" title="Invites">
      <form className="form" onSubmit={(e) => void create(e)}>
        <label className="field">
          <span>Expires after (hours)</span>
          <input type="number" min={1} max={8760} value={hours} onChange={(e) => setHours(e.target.value)} required />
        </label>
        <label className="field">
          <span>Uses</span>
          <input type="number" min={1} max={1000} value={uses} onChange={(e) => setUses(e.target.value)} required />
        </label>
        <label className="field">
          <span>Only for this e-mail address (optional)</span>
          <input type="email" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <button className="btn btn-primary" type="submit">
          Create invite
        </button>
      </form>
      {created && (
        <div className="note note-ok" role="status">
          Send this link; it is shown only now. Expires {humanInstant(created.expires_at, zone)}.
          <CodeBlock code={created.url} label="Invite link" wrap testId="invite-url" />
        </div>
      )}
      {error && <ErrorNote message={error} />}
      {list.error && <ErrorNote message={list.error} retry={list.retry} />}
      {!list.data && !list.error && <Skeleton height={80} />}
      {list.data && list.data.invites.length === 0 && <p className="muted">No invites yet.</p>}
      {list.data && list.data.invites.length > 0 && (
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">For</th>
                <th scope="col">Uses</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.invites.map((invite) => (
                <tr key={invite.id}>
                  <th scope="row">{invite.email ?? 'anyone'}</th>
                  <td>
                    {invite.uses} of {invite.max_uses}
                  </td>
                  <td>{humanInstant(invite.expires_at, zone)}</td>
                  <td>{invite.status}</td>
                  <td>
                    {invite.status === 'live' && (
                      <button
                        type="button"
                        className="btn btn-small btn-ghost-danger"
                        onClick={() => void revoke(invite.id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

export function SignupSettings() {
  const loaded = useLoad('admin-settings', (signal) => call<SignupSettings>('svc-admin-settings', { signal }));
  const [mode, setMode] = useState<Mode>('open');
  const [domains, setDomains] = useState('');
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string>();
  // The form starts from each answer read (state adjusted while rendering, not in an effect).
  const [shown, setShown] = useState<typeof loaded.data>();
  if (loaded.data !== shown) {
    setShown(loaded.data);
    if (loaded.data) {
      setMode(loaded.data.signup_mode);
      setDomains(loaded.data.signup_email_domains.join(', '));
    }
  }
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      const list = domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter((d) => d !== '');
      const answer = await call<Answer<'svc-admin-settings', 'post'>>('svc-admin-settings', {
        method: 'POST',
        body: { signup_mode: mode, signup_email_domains: list },
      });
      setDomains(answer.signup_email_domains.join(', '));
      setSaved(true);
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  return (
    <Card id="admin-signup" title="Who may sign up">
      {loaded.error && <ErrorNote message={loaded.error} retry={loaded.retry} />}
      {!loaded.data && !loaded.error && <Skeleton height={80} />}
      {loaded.data && (
        <form className="form" onSubmit={(e) => void save(e)}>
          <fieldset className="field">
            <legend>Sign-up</legend>
            {(
              [
                ['open', 'Open: anyone (within the domains below)'],
                ['invite', 'With an invite only'],
                ['closed', 'Closed: accounts are made with npm run admin -- create-user'],
              ] as const
            ).map(([value, label]) => (
              <label key={value}>
                <input type="radio" name="signup-mode" checked={mode === value} onChange={() => setMode(value)} />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          <label className="field">
            <span>E-mail domains allowed without an invite (comma-separated; empty: any)</span>
            <input value={domains} onChange={(e) => setDomains(e.target.value)} placeholder="example.com" />
          </label>
          {error && <ErrorNote message={error} />}
          {saved && (
            <div className="note note-ok" role="status">
              Saved. It applies to the next sign-up.
            </div>
          )}
          <button className="btn btn-primary" type="submit">
            Save
          </button>
        </form>
      )}
    </Card>
  );
}
