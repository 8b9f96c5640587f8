/**
 * @fileoverview The session, kept by the official GoTrue client against our /auth/v1: it survives
 * reloads (localStorage) and refreshes itself. A session that ends without the user signing out
 * (refresh refused) is remembered as "expired" so the sign-in page can say so. Single sign-on
 * (sign-in-providers.tsx) returns here with a one-time code that the client exchanges at load
 * (PKCE).
 *
 * A password recovery link (`/auth/v1/verify`) comes back with a session in the URL fragment
 * (`#access_token=…&type=recovery`, GoTrue's form). The client runs the PKCE flow, which refuses a
 * session in the fragment, so the session is taken from there here (only that fragment, nothing
 * else in the address), and marked `recovery` until a new password is set. A link that no longer
 * works comes back with `#error_code=otp_expired`: read and removed here, and said on the sign-in
 * page (`linkNotice`).
 */
import { GoTrueClient, type Session } from '@supabase/auth-js';
import { useSyncExternalStore } from 'react';

const fragment = new URLSearchParams(location.hash.slice(1));
let recovering = fragment.get('type') === 'recovery' && fragment.has('access_token');
/** What the sign-in page says after a recovery link that no longer works. */
export const linkNotice: string | undefined = fragment.has('error_code')
  ? 'That password reset link is invalid, used or expired. Ask for a new one.'
  : undefined;
if (linkNotice) history.replaceState(history.state, '', location.pathname + location.search);

const STORAGE_KEY = 'tokentally.auth';

export const auth = new GoTrueClient({
  url: `${location.origin}/auth/v1`,
  storageKey: STORAGE_KEY,
  autoRefreshToken: true,
  persistSession: true,
  // Single sign-on returns with ?code= (PKCE): the client exchanges it for the session on load,
  // with the verifier it kept when the sign-in started. No session is ever taken from a fragment by
  // the client (the recovery link's is taken below).
  flowType: 'pkce',
  detectSessionInUrl: () => false,
});

// The recovery link's session, from its fragment: set once the client has started, the fragment
// removed from the address first, so a reload does not take it again.
if (recovering) {
  const access_token = fragment.get('access_token') ?? '';
  const refresh_token = fragment.get('refresh_token') ?? '';
  history.replaceState(history.state, '', location.pathname + location.search);
  void auth.setSession({ access_token, refresh_token }).then(({ error }) => {
    if (error) recovering = false;
  });
}

/**
 * The access token the client kept from the last visit, read straight from storage while the
 * client is still starting, for the first page's reads (prefetch.ts); none when it expires within
 * two minutes (the client refreshes it first), during a recovery link or a sign-on's return.
 */
export function storedAccessToken(): string | undefined {
  if (recovering || linkNotice || new URLSearchParams(location.search).has('code')) return undefined;
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as {
      access_token?: unknown;
      expires_at?: unknown;
    } | null;
    const token = stored?.access_token;
    const expires = stored?.expires_at;
    return typeof token === 'string' && typeof expires === 'number' && expires * 1000 > Date.now() + 120_000
      ? token
      : undefined;
  } catch {
    return undefined;
  }
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; expired: boolean; notice?: string }
  | { status: 'signed-in'; session: Session; recovery?: boolean };

let state: SessionState = { status: 'loading' };
let signingOut = false;
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  listeners.forEach((l) => l());
}

auth.onAuthStateChange((event, session) => {
  if (event === 'PASSWORD_RECOVERY') recovering = true;
  if (session) set(recovering ? { status: 'signed-in', session, recovery: true } : { status: 'signed-in', session });
  else if (event === 'SIGNED_OUT' || event === 'INITIAL_SESSION') {
    // Ended without the user signing out (refresh refused), or already known to have expired.
    const expired =
      event === 'SIGNED_OUT' &&
      !signingOut &&
      (state.status === 'signed-in' || (state.status === 'signed-out' && state.expired));
    set({ status: 'signed-out', expired });
    signingOut = false;
  }
});

export function useSession(): SessionState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** The current access token, refreshed first when it is about to expire. */
export async function accessToken(): Promise<string | undefined> {
  const { data } = await auth.getSession();
  return data.session?.access_token;
}

/** Called when the server refused our token: try one refresh, else the session has expired. */
export async function sessionRejected(): Promise<boolean> {
  const { data, error } = await auth.refreshSession();
  if (data.session && !error) return true;
  set({ status: 'signed-out', expired: true });
  await auth.signOut({ scope: 'local' }).catch(() => undefined);
  return false;
}

/** The new password after a recovery link is set: the session goes on as an ordinary one. */
export function recoveryDone(): void {
  recovering = false;
  if (state.status === 'signed-in') set({ status: 'signed-in', session: state.session });
}

export async function signOut(): Promise<void> {
  signingOut = true;
  recovering = false;
  await auth.signOut();
  set({ status: 'signed-out', expired: false });
}

/** Forgets the session in this browser only (the server has already ended it), with a word for the sign-in page. */
export async function signOutLocally(notice: string): Promise<void> {
  signingOut = true;
  await auth.signOut({ scope: 'local' }).catch(() => undefined);
  set({ status: 'signed-out', expired: false, notice });
}
