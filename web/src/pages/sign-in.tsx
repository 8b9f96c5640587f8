/** @fileoverview Sign up and sign in (the sign-in API through the GoTrue client). */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { auth, linkNotice } from '../auth.js';
import { Link, useLocation } from '../router.js';
import { Logo } from '../components/logo.js';
import { SignInProviders } from './sign-in-providers.js';

/** What a refused sign-up or sign-in says, by GoTrue's error code (docs/running-for-a-group.md). */
const REFUSALS: Record<string, string> = {
  signup_disabled: 'This server does not take new accounts without an invite. Ask its admin for an invite link.',
  email_address_not_authorized:
    'Sign-up here is limited to certain e-mail domains. Use your work address, or ask its admin for an invite.',
  invite_invalid:
    'This invite cannot be used: it has expired, been used up or revoked, or is for another e-mail address. Ask its admin for a new one.',
  user_banned: 'This account has been disabled by an admin of this server.',
};

/** Whether anyone may sign up here (`signup_mode` of GET /auth/v1/settings); undefined while unknown. */
function useSignupMode(): string | undefined {
  const [mode, setMode] = useState<string>();
  useEffect(() => {
    fetch('/auth/v1/settings')
      .then((res) => res.json() as Promise<{ signup_mode?: string }>)
      .then((body) => setMode(body.signup_mode ?? 'open'))
      .catch(() => setMode('open'));
  }, []);
  return mode;
}

export function SignIn({
  mode,
  expired,
  notice,
}: {
  mode: 'sign-in' | 'sign-up';
  expired: boolean;
  notice?: string | undefined;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'sign-up';
  const invite = useLocation().query.get('invite') ?? undefined;
  const signupMode = useSignupMode();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const data: Record<string, string> = {};
    if (name.trim()) data['display_name'] = name.trim();
    if (invite) data['invite_token'] = invite;
    const { error: failed } = signUp
      ? await auth.signUp({ email, password, options: { data } })
      : await auth.signInWithPassword({ email, password });
    setBusy(false);
    if (failed) setError((failed.code && REFUSALS[failed.code]) || failed.message || 'Sign-in failed.');
  };
  return (
    <AuthLayout>
      {linkNotice && !expired && (
        <div className="note note-warn" role="alert">
          {linkNotice}
        </div>
      )}
      {expired && (
        <div className="note note-warn" role="alert">
          Your session has ended. Sign in again to continue.
        </div>
      )}
      {notice && !expired && (
        <div className="note note-ok note-block" role="status">
          {notice}
        </div>
      )}
      <h1>{signUp ? 'Create your account' : 'Sign in'}</h1>
      {!signUp && <SignInProviders />}
      {signUp && invite && (
        <div className="note note-ok note-block" role="status">
          You have an invite: it is used when you create your account.
        </div>
      )}
      {signUp && !invite && signupMode === 'invite' && (
        <div className="note note-warn" role="status">
          New accounts on this server need an invite. Open the invite link you were sent.
        </div>
      )}
      {signUp && signupMode === 'closed' && (
        <div className="note note-warn" role="status">
          This server does not take new accounts. Ask its admin.
        </div>
      )}
      <form className="form" onSubmit={(e) => void submit(e)}>
        {signUp && (
          <label className="field">
            <span>Display name (optional)</span>
            <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="nickname" maxLength={100} />
          </label>
        )}
        <label className="field">
          <span>E-mail</span>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            minLength={signUp ? 8 : 1}
            autoComplete={signUp ? 'new-password' : 'current-password'}
          />
        </label>
        {!signUp && (
          <p className="small">
            <Link href="/forgot-password">Forgot password?</Link>
          </p>
        )}
        {error && (
          <div className="note note-error" role="alert">
            {error}
          </div>
        )}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
          {busy ? 'One moment…' : signUp ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p className="muted small center">
        {signUp ? (
          <>
            Already have an account? <Link href={`/sign-in${location.search}`}>Sign in</Link>
          </>
        ) : (
          <>
            New here? <Link href={`/sign-up${location.search}`}>Create an account</Link>
          </>
        )}
      </p>
      <p className="muted small center">
        <Link href="/leaderboard">Leaderboard</Link> · <a href="/openapi.json">API</a> · <a href="/guide">Docs</a>
      </p>
    </AuthLayout>
  );
}

/** The signed-out pages' frame: the product on one side, the card (`children`) on the other. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-page">
      <div className="auth-hero">
        <div className="brand brand-large">
          <Logo onAccent /> Tokentally
        </div>
        <p className="hero-line">
          Every token your coding agents burn — on every machine, in your time zone, priced to the cent.
        </p>
        <ul className="hero-points">
          <li>Codex, Claude Code, Gemini CLI, OpenCode and more</li>
          <li>Half-hour detail, exact totals and cost</li>
          <li>Private by default; share when you want</li>
        </ul>
      </div>
      <main className="auth-card" id="main">
        {children}
      </main>
    </div>
  );
}
