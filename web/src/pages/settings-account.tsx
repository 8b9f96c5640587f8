/** @fileoverview Settings: download all usage (exportUsage) and delete the account (deleteAccount). */
import { useRef, useState, type FormEvent } from 'react';
import { ApiError, call, download } from '../api.js';
import { signOutLocally, useSession } from '../auth.js';
import { Card, ErrorNote } from '../components/common.js';
import { navigate } from '../router.js';

type Format = 'csv' | 'json';

const message = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/** Hands a downloaded blob to the browser as a file. */
function save(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function ExportPanel() {
  const [format, setFormat] = useState<Format>('csv');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string; done?: string }>({});
  const reversed = from !== '' && to !== '' && from > to;
  const run = async (e: FormEvent) => {
    e.preventDefault();
    if (reversed) return;
    setState({ busy: true });
    try {
      const { blob, filename } = await download('svc-export', { params: { format, from, to } });
      const name = filename ?? `tokentally-export-${new Date().toISOString().slice(0, 10)}.${format}`;
      save(blob, name);
      setState({ done: `Saved ${name} (${size(blob.size)}).` });
    } catch (error) {
      setState({ error: message(error) });
    }
  };
  return (
    <Card id="export" title="Export your data">
      <form className="form" onSubmit={(e) => void run(e)}>
        <p className="muted small flush">
          Every half-hour bucket your devices uploaded (device, source, model, project, the token counts) and every
          daily total with its cost.
        </p>
        <fieldset className="field">
          <legend>Format</legend>
          <div className="segmented">
            {(['csv', 'json'] as const).map((f) => (
              <button key={f} type="button" aria-pressed={format === f} onClick={() => setFormat(f)}>
                {f.toUpperCase()}
              </button>
            ))}
          </div>
        </fieldset>
        <fieldset className="field">
          <legend>Days (UTC, inclusive)</legend>
          <div className="date-range">
            <label className="field">
              <span className="small">From</span>
              <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
            </label>
            <label className="field">
              <span className="small">To</span>
              <input
                type="date"
                value={to}
                min={from || undefined}
                onChange={(e) => setTo(e.target.value)}
                aria-invalid={reversed}
              />
            </label>
            {(from || to) && (
              <button type="button" className="btn btn-small btn-ghost" onClick={() => (setFrom(''), setTo(''))}>
                All time
              </button>
            )}
          </div>
          <small className={reversed ? 'error-text' : 'muted'}>
            {reversed
              ? 'The first day comes after the last.'
              : from || to
                ? `${from || 'the first upload'} to ${to || 'today'}.`
                : 'Empty: all time.'}
          </small>
        </fieldset>
        <div className="button-row">
          <button className="btn btn-primary" type="submit" disabled={state.busy === true || reversed}>
            {state.busy ? 'Preparing…' : 'Download'}
          </button>
          <span role="status" className="ok-text">
            {state.busy ? 'Preparing the export…' : state.done}
          </span>
        </div>
        {state.error && <ErrorNote message={state.error} />}
      </form>
    </Card>
  );
}

const CONFIRM_WORDS = 'delete my account';

export function DeleteAccount() {
  const session = useSession();
  const hasPassword = session.status !== 'signed-in' || session.session.user.app_metadata['provider'] === 'email';
  const dialog = useRef<HTMLDialogElement>(null);
  const [proof, setProof] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const open = () => {
    setProof('');
    setError(undefined);
    dialog.current?.showModal();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('svc-account-delete', {
        method: 'POST',
        body: hasPassword ? { password: proof } : { confirm: proof },
      });
    } catch (failed) {
      setBusy(false);
      setError(message(failed));
      return;
    }
    dialog.current?.close();
    await signOutLocally('Your account was deleted. Everything Tokentally kept about you is gone.');
    navigate('/sign-in', { replace: true });
  };
  return (
    <Card id="danger" title="Danger zone" className="danger-zone">
      <div className="danger-row">
        <p className="flush">
          <strong>Delete your account</strong>
          <br />
          <span className="muted small">Removes your devices, usage and sharing for good.</span>
        </p>
        <button type="button" className="btn btn-danger" onClick={open}>
          Delete account…
        </button>
      </div>
      <dialog ref={dialog} className="dialog" aria-labelledby="delete-title" aria-describedby="delete-what">
        <form className="form" onSubmit={(e) => void submit(e)}>
          <h2 id="delete-title">Delete your account?</h2>
          <div id="delete-what">
            <p className="flush">This removes, at once and for good:</p>
            <ul className="delete-list">
              <li>your devices and their tokens (the command-line client stops uploading)</li>
              <li>all your usage: every half-hour, daily total and cost</li>
              <li>your leaderboard rows and public profile</li>
              <li>sharing: the share link, badge and card</li>
              <li>your sign-in and every session</li>
            </ul>
            <p className="flush">
              <strong>This cannot be undone.</strong> Export your data first if you want to keep it.
            </p>
          </div>
          <label className="field">
            <span>{hasPassword ? 'Your password' : `Type “${CONFIRM_WORDS}” to confirm`}</span>
            <input
              type={hasPassword ? 'password' : 'text'}
              value={proof}
              onChange={(e) => setProof(e.target.value)}
              required
              autoComplete={hasPassword ? 'current-password' : 'off'}
              data-testid="delete-proof"
            />
          </label>
          {error && <ErrorNote message={error} />}
          <div className="button-row dialog-buttons">
            <button type="button" className="btn" onClick={() => dialog.current?.close()} disabled={busy}>
              Cancel
            </button>
            <button
              type="submit"
              className="btn btn-danger"
              disabled={busy || (!hasPassword && proof.trim() !== CONFIRM_WORDS)}
            >
              {busy ? 'Deleting…' : 'Delete my account'}
            </button>
          </div>
        </form>
      </dialog>
    </Card>
  );
}
