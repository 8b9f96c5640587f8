/** @fileoverview The shell: header, navigation, routes, the signed-out gate. */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { signOut, useSession } from './auth.js';
import { Avatar, Skeleton } from './components/common.js';
import { Overview } from './pages/overview.js';
import { Logo, SignIn } from './pages/sign-in.js';
import { Link, navigate, useLocation } from './router.js';

const Devices = lazy(() => import('./pages/devices.js').then((m) => ({ default: m.Devices })));
const LinkPage = lazy(() => import('./pages/link.js').then((m) => ({ default: m.LinkPage })));
const Leaderboard = lazy(() => import('./pages/leaderboard.js').then((m) => ({ default: m.Leaderboard })));
const Settings = lazy(() => import('./pages/settings.js').then((m) => ({ default: m.Settings })));
const ForgotPassword = lazy(() => import('./pages/recovery.js').then((m) => ({ default: m.ForgotPassword })));
const NewPassword = lazy(() => import('./pages/recovery.js').then((m) => ({ default: m.NewPassword })));
const PublicProfile = lazy(() => import('./pages/profile.js').then((m) => ({ default: m.PublicProfile })));
const SharePage = lazy(() => import('./pages/profile.js').then((m) => ({ default: m.SharePage })));
const Teams = lazy(() => import('./pages/teams.js').then((m) => ({ default: m.Teams })));
const JoinTeam = lazy(() => import('./pages/team-join.js').then((m) => ({ default: m.JoinTeam })));
const Guide = lazy(() => import('./pages/guide.js').then((m) => ({ default: m.Guide })));
const AdminPage = lazy(() => import('./pages/admin.js').then((m) => ({ default: m.AdminPage })));

const NAV: Array<[string, string]> = [
  ['/', 'Overview'],
  ['/devices', 'Devices'],
  ['/teams', 'Teams'],
  ['/leaderboard', 'Leaderboard'],
  ['/settings', 'Settings'],
];

const TITLES: Record<string, string> = {
  '/': 'Overview',
  '/devices': 'Devices',
  '/teams': 'Teams',
  '/join': 'Join a team',
  '/leaderboard': 'Leaderboard',
  '/settings': 'Settings',
  '/admin': 'Admin',
  '/link': 'Link a machine',
  '/share': 'Shared profile',
  '/forgot-password': 'Reset your password',
  '/guide': 'User guide',
};

/** The addresses the app knows (others show "Not found", signed in or not). */
const KNOWN = new Set([...Object.keys(TITLES), '/sign-in', '/sign-up']);

function NotFound() {
  return (
    <div className="page narrow">
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. <Link href="/">Back to the overview</Link> or read the{' '}
        <Link href="/guide">user guide</Link>.
      </p>
    </div>
  );
}

function Shell({ children, signedIn, admin = false }: { children: ReactNode; signedIn: boolean; admin?: boolean }) {
  const { path } = useLocation();
  const session = useSession();
  const user = session.status === 'signed-in' ? session.session.user : undefined;
  const email = user?.email;
  const shown: unknown = user?.user_metadata?.['display_name'];
  const name = typeof shown === 'string' ? shown : undefined;
  // The menu is open on the path it was opened on: a navigation closes it.
  const [menuOn, setMenuOn] = useState<string | null>(null);
  const menu = menuOn === path;
  const nav: Array<[string, string]> = admin ? [...NAV, ['/admin', 'Admin']] : NAV;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link href="/" className="brand">
            <Logo /> <span>Tokentally</span>
          </Link>
          <button
            type="button"
            className="btn btn-small btn-ghost menu-button"
            aria-expanded={menu}
            aria-controls="main-nav"
            onClick={() => setMenuOn(menu ? null : path)}
          >
            Menu
          </button>
          <nav aria-label="Main" className={`nav ${menu ? 'open' : ''}`} id="main-nav">
            {nav
              .filter(([href]) => signedIn || href === '/leaderboard')
              .map(([href, label]) => (
                <Link key={href} href={href} aria-current={path === href ? 'page' : undefined}>
                  {label}
                </Link>
              ))}
          </nav>
          <div className="topbar-end">
            {signedIn ? (
              <details className="account-menu">
                <summary>
                  <Avatar url={null} name={name || email} size={28} />
                  <span className="sr-only">Account </span>
                  <span className="account-email" data-testid="account-email">
                    {email}
                  </span>
                </summary>
                <div className="account-panel">
                  <p className="small">
                    Signed in as <strong>{email}</strong>
                  </p>
                  <Link href="/settings">Settings</Link>
                  <a href="/guide">User guide</a>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => void signOut().then(() => navigate('/sign-in'))}
                  >
                    Sign out
                  </button>
                </div>
              </details>
            ) : (
              <Link href="/sign-in" className="btn btn-small btn-primary">
                Sign in
              </Link>
            )}
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense
          fallback={
            <div className="page">
              <Skeleton height={300} />
            </div>
          }
        >
          {children}
        </Suspense>
      </main>
      <footer className="footer">
        Tokentally · <a href="/guide">User guide</a> · <a href="/openapi.json">API</a>
      </footer>
    </>
  );
}

export function App() {
  const session = useSession();
  const { path } = useLocation();
  const signedIn = session.status === 'signed-in';
  // The server checks every admin operation itself; this only decides what to show.
  const admin = session.status === 'signed-in' && session.session.user.app_metadata['role'] === 'admin';
  useEffect(() => {
    document.title = `${TITLES[path] ?? (path.startsWith('/u/') ? 'Profile' : 'Tokentally')} · Tokentally`;
  }, [path]);
  useEffect(() => {
    if (signedIn && (path === '/sign-in' || path === '/sign-up')) navigate('/', { replace: true });
  }, [signedIn, path]);

  if (session.status === 'loading') return <div className="boot" aria-busy="true" />;

  // Public pages, signed in or not.
  if (path === '/leaderboard')
    return (
      <Shell signedIn={signedIn}>
        <Leaderboard />
      </Shell>
    );
  if (path.startsWith('/u/'))
    return (
      <Shell signedIn={signedIn}>
        <PublicProfile userId={decodeURIComponent(path.slice(3))} />
      </Shell>
    );
  if (path === '/share')
    return (
      <Shell signedIn={signedIn}>
        <SharePage />
      </Shell>
    );
  if (path === '/guide' || !KNOWN.has(path))
    return (
      <Shell signedIn={signedIn} admin={admin}>
        {path === '/guide' ? <Guide /> : <NotFound />}
      </Shell>
    );

  if (!signedIn && path === '/forgot-password')
    return (
      <Suspense fallback={<div className="boot" aria-busy="true" />}>
        <ForgotPassword />
      </Suspense>
    );
  if (!signedIn)
    return (
      <SignIn
        mode={path === '/sign-up' ? 'sign-up' : 'sign-in'}
        expired={session.status === 'signed-out' && session.expired}
        notice={session.status === 'signed-out' ? session.notice : undefined}
      />
    );

  let page: ReactNode;
  if (session.recovery) page = <NewPassword />;
  else if (path === '/devices') page = <Devices />;
  else if (path === '/link') page = <LinkPage />;
  else if (path === '/teams') page = <Teams />;
  else if (path === '/join') page = <JoinTeam />;
  else if (path === '/settings') page = <Settings />;
  else if (path === '/admin' && admin) page = <AdminPage />;
  else if (path === '/' || path === '/sign-in' || path === '/sign-up' || path === '/forgot-password')
    page = <Overview />;
  else page = <NotFound />;
  return (
    <Shell signedIn admin={admin}>
      {page}
    </Shell>
  );
}
