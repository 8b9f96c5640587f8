/**
 * @fileoverview The single sign-on buttons of the sign-in page: one per provider the server lists in
 * /auth/v1/settings (`external`, with its button text in `external_labels`). A button starts
 * auth-js's `signInWithOAuth` (PKCE); the provider returns to this page, where the client exchanges
 * the code. A refused sign-in comes back with `error_description`, shown here.
 */
import type { Provider } from '@supabase/auth-js';
import { useEffect, useState } from 'react';
import { auth } from '../auth.js';

interface AuthSettings {
  external?: Record<string, boolean>;
  external_labels?: Record<string, string>;
}

/** The error a single sign-on returned with (query for PKCE, fragment for the implicit flow). */
function returnedError(): string | undefined {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  return query.get('error_description') ?? fragment.get('error_description') ?? undefined;
}

export function SignInProviders() {
  const [providers, setProviders] = useState<Array<{ id: string; label: string }>>([]);
  const [error, setError] = useState(returnedError);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/auth/v1/settings')
      .then((r) => (r.ok ? (r.json() as Promise<AuthSettings>) : {}))
      .then((settings: AuthSettings) => {
        if (!live) return;
        const labels = settings.external_labels ?? {};
        setProviders(
          Object.entries(settings.external ?? {})
            .filter(([id, on]) => on && id !== 'email')
            .map(([id]) => ({ id, label: labels[id] ?? id })),
        );
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (providers.length === 0 && !error) return null;
  const start = async (id: string) => {
    setBusy(true);
    setError(undefined);
    // 'oidc' is this server's own provider name, not one of auth-js's list; the client passes it on as is.
    const { error: failed } = await auth.signInWithOAuth({
      provider: id as Provider,
      options: { redirectTo: `${location.origin}${location.pathname}` },
    });
    if (failed) {
      setBusy(false);
      setError(failed.message || 'Single sign-on could not start.');
    }
  };
  return (
    <div className="sso">
      {error && (
        <div className="note note-error" role="alert">
          {error}
        </div>
      )}
      {providers.map((p) => (
        <button key={p.id} type="button" className="btn btn-block" disabled={busy} onClick={() => void start(p.id)}>
          {p.id === 'github' ? 'Sign in with GitHub' : p.label}
        </button>
      ))}
      {providers.length > 0 && <p className="muted small center">or with your e-mail address</p>}
    </div>
  );
}
