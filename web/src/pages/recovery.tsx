/**
 * @fileoverview Password recovery: "Forgot password?" asks for the e-mail address and has the
 * server mail a link (`POST /auth/v1/recover`; a server without mail says to ask an admin), and
 * after that link the "Set a new password" page (`PUT /auth/v1/user` with the new password alone,
 * which the server allows in a session that has just signed in).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { auth, recoveryDone } from '../auth.js';
import { ErrorNote } from '../components/common.js';
import { Link, navigate } from '../router.js';
import { AuthLayout } from './sign-in.js';

const MIN_LENGTH = 8;

/** Whether this server mails recovery links (`recovery_mail` in `GET /auth/v1/settings`). */
function useRecoveryMail(): boolean | undefined {
  const [mail, setMail] = useState<boolean>();
  useEffect(() => {
    let live = true;
    fetch('/auth/v1/settings')
      .then((r) => r.json() as Promise<{ recovery_mail?: boolean }>)
      .then((s) => live && setMail(s.recovery_mail === true))
      .catch(() => live && setMail(true));
    return () => {
      live = false;
    };
  }, []);
  return mail;
}

export function ForgotPassword() {
  const mail = useRecoveryMail();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string; sent?: boolean }>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState({ busy: true });
    const { error } = await auth.resetPasswordForEmail(email.trim());
    setState(error ? { error: error.message } : { sent: true });
  };
  return (
    <AuthLayout>
      <h1>Reset your password</h1>
      {mail === false ? (
        <div className="note note-warn note-block" role="status">
          This server does not send e-mail, so it cannot mail you a link. Ask an admin of this server to make you a
          password reset link.
        </div>
      ) : state.sent ? (
        <div className="note note-ok note-block" role="status">
          If an account exists for {email.trim()}, we sent it a link to set a new password. The link works once, for an
          hour.
        </div>
      ) : (
        <form className="form" onSubmit={(e) => void submit(e)}>
          <p className="muted">
            Enter your account's e-mail address and we will send you a link to set a new password.
          </p>
          <label className="field">
            <span>E-mail</span>
            <input
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              autoComplete="email"
            />
          </label>
          {state.error && <ErrorNote message={state.error} />}
          <button
            className="btn btn-primary btn-block"
            type="submit"
            disabled={state.busy === true || mail === undefined}
          >
            {state.busy ? 'One moment…' : 'Send the link'}
          </button>
        </form>
      )}
      <p className="muted small center">
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}

export function NewPassword() {
  const [password, setPassword] = useState('');
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState({ busy: true });
    const { error } = await auth.updateUser({ password });
    if (error) {
      setState({ error: error.message });
      return;
    }
    recoveryDone();
    navigate('/', { replace: true });
  };
  return (
    <div className="page narrow">
      <h1>Set a new password</h1>
      <p className="muted">
        You opened a password reset link: your other sessions have been signed out. Choose the password you will sign in
        with from now on.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            minLength={MIN_LENGTH}
            autoComplete="new-password"
          />
          <small className="muted">At least {MIN_LENGTH} characters.</small>
        </label>
        {state.error && <ErrorNote message={state.error} />}
        <div className="button-row">
          <button className="btn btn-primary" type="submit" disabled={state.busy === true}>
            {state.busy ? 'Saving…' : 'Set password'}
          </button>
        </div>
      </form>
    </div>
  );
}
