/**
 * @fileoverview The CLI's one-click link: `tokentally link --server URL` opens this page with a
 * loopback callback and a one-time state. The signed-in user approves; the page creates a link
 * code and hands only that code (with the state) to the loopback address. The session token never
 * leaves the browser. The page names the account the machine would join ("Link laptop to
 * ada@example.com?"), so a user signed in to another account than they meant sees it before approving.
 */
import { useState } from 'react';
import { call, type Answer } from '../api.js';
import { useSession } from '../auth.js';
import { Card, ErrorNote } from '../components/common.js';
import { useLocation } from '../router.js';

/** Only http://127.0.0.1:PORT/… (or [::1], localhost) callbacks are accepted. */
export function loopbackCallback(raw: string | null): URL | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    const host = url.hostname;
    if (url.protocol !== 'http:' || !['127.0.0.1', '[::1]', 'localhost'].includes(host) || !url.port) return null;
    return url;
  } catch {
    return null;
  }
}

export function LinkPage() {
  const { query } = useLocation();
  const callback = loopbackCallback(query.get('callback'));
  const state = query.get('state') ?? '';
  const device = (query.get('device') ?? 'this machine').slice(0, 128);
  const session = useSession();
  const user = session.status === 'signed-in' ? session.session.user : undefined;
  const displayName: unknown = user?.user_metadata?.['display_name'];
  const account = user?.email || (typeof displayName === 'string' && displayName) || 'your account';
  const [phase, setPhase] = useState<'ask' | 'sending' | 'done' | 'declined'>('ask');
  const [error, setError] = useState<string>();
  if (!callback || !/^[A-Za-z0-9_-]{16,128}$/.test(state)) {
    return (
      <div className="page narrow">
        <Card title="This link request is not valid">
          <p>
            Start again on the machine with <code>tokentally link --server {location.origin}</code>.
          </p>
        </Card>
      </div>
    );
  }
  const approve = async () => {
    setPhase('sending');
    setError(undefined);
    try {
      const { link_code } = await call<Answer<'svc-link-code-init', 'post'>>('svc-link-code-init', { method: 'POST' });
      const target = new URL(callback);
      target.searchParams.set('code', link_code);
      target.searchParams.set('state', state);
      setPhase('done');
      location.assign(target.toString());
    } catch (e) {
      setPhase('ask');
      setError((e as Error).message);
    }
  };
  return (
    <div className="page narrow">
      <Card title={`Link ${device} to ${account}?`} id="approve">
        {phase === 'declined' ? (
          <p>Not linked. You can close this tab; the command on the machine will stop waiting.</p>
        ) : phase === 'done' ? (
          <p role="status">Handing a one-time code to the command on your machine…</p>
        ) : (
          <>
            <p>
              A <code>tokentally</code> command on <strong>{device}</strong> asks to upload its usage to the account{' '}
              <strong>{account}</strong>. Approve only if you just started it and this is the account you mean.
            </p>
            <div className="button-row">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => void approve()}
                disabled={phase === 'sending'}
              >
                Link {device}
              </button>
              <button type="button" className="btn" onClick={() => setPhase('declined')}>
                Cancel
              </button>
            </div>
            <p className="muted small">
              Only a one-time link code goes to {callback.host} on your machine, never your session.
            </p>
          </>
        )}
        {error && <ErrorNote message={error} retry={() => void approve()} />}
      </Card>
    </div>
  );
}
