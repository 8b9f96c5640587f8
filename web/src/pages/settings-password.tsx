/**
 * @fileoverview Settings: change the password (sign-in API `PUT /auth/v1/user`). The current password
 * is always asked for: the server needs it unless the session signed in minutes ago, and a browser
 * left signed in should not let anyone at it set a new one.
 */
import { useState, type FormEvent } from 'react';
import { auth, useSession } from '../auth.js';
import { Card, ErrorNote } from '../components/common.js';

const MIN_LENGTH = 8;

export function PasswordForm() {
  const session = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string; done?: boolean }>({});
  if (session.status !== 'signed-in' || session.session.user.app_metadata['provider'] !== 'email') return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState({ busy: true });
    const { error } = await auth.updateUser({ password: next, current_password: current });
    if (error) {
      setState({ error: error.message });
      return;
    }
    setCurrent('');
    setNext('');
    setState({ done: true });
  };
  return (
    <Card id="password" title="Password">
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>Current password</span>
          <input
            type="password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            required
            autoComplete="current-password"
          />
        </label>
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            required
            minLength={MIN_LENGTH}
            autoComplete="new-password"
          />
          <small className="muted">At least {MIN_LENGTH} characters. Your other sessions are signed out.</small>
        </label>
        <div className="button-row">
          <button className="btn btn-primary" type="submit" disabled={state.busy === true}>
            {state.busy ? 'Changing…' : 'Change password'}
          </button>
          <span role="status" className="ok-text">
            {state.done ? 'Password changed.' : ''}
          </span>
        </div>
        {state.error && <ErrorNote message={state.error} />}
      </form>
    </Card>
  );
}
