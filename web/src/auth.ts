/**
 * @fileoverview The session, kept by the official GoTrue client against our /auth/v1: it survives
 * reloads (localStorage) and refreshes itself. A session that ends without the user signing out
 * (refresh refused) is remembered as "expired" so the sign-in page can say so. Single sign-on
 * (sign-in-providers.tsx) returns here with a one-time code that the client exchanges at load.
 */
import { GoTrueClient, type Session } from '@supabase/auth-js';
import { useSyncExternalStore } from 'react';

export const auth = new GoTrueClient({
  url: `${location.origin}/auth/v1`,
  storageKey: 'tokentally.auth',
  autoRefreshToken: true,
  persistSession: true,
  // Single sign-on returns with ?code= (PKCE): the client exchanges it for the session on load,
  // with the verifier it kept when the sign-in started. Password sign-in does not use PKCE.
  flowType: 'pkce',
  detectSessionInUrl: true,
});

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; expired: boolean; notice?: string }
  | { status: 'signed-in'; session: Session };

let state: SessionState = { status: 'loading' };
let signingOut = false;
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  listeners.forEach((l) => l());
}

auth.onAuthStateChange((event, session) => {
  if (session) set({ status: 'signed-in', session });
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

export async function signOut(): Promise<void> {
  signingOut = true;
  await auth.signOut();
  set({ status: 'signed-out', expired: false });
}

/** Forgets the session in this browser only (the server has already ended it), with a word for the sign-in page. */
export async function signOutLocally(notice: string): Promise<void> {
  signingOut = true;
  await auth.signOut({ scope: 'local' }).catch(() => undefined);
  set({ status: 'signed-out', expired: false, notice });
}
