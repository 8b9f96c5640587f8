/** @fileoverview The shell (header, navigation) and the signed-out gate around the route table's page (routes.tsx). */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { signOut, useSession } from './auth.js';
import { Avatar, Skeleton } from './components/common.js';
import { Overview } from './pages/overview.js';
import { Logo } from './components/logo.js';
import { Link, navigate, useLocation } from './router.js';
import { routeOf, ROUTES, signInForm, type At } from './routes.js';

const NewPassword = lazy(() => import('./pages/recovery.js').then((m) => ({ default: m.NewPassword })));

/** The main navigation, in the route table's order. */
const NAV = ROUTES.filter((r) => r.nav !== undefined);

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
            {NAV.filter((r) => (r.access === 'admin' ? admin : signedIn || r.access === 'anyone')).map(
              ({ path: href, nav: label }) => (
                <Link key={href} href={href} aria-current={path === href ? 'page' : undefined}>
                  {label}
                </Link>
              ),
            )}
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
  const route = routeOf(path);
  useEffect(() => {
    document.title = `${route?.title ?? 'Tokentally'} · Tokentally`;
  }, [route]);
  useEffect(() => {
    if (signedIn && (path === '/sign-in' || path === '/sign-up')) navigate('/', { replace: true });
  }, [signedIn, path]);

  if (session.status === 'loading') return <div className="boot" aria-busy="true" />;

  const signedOut = session.status === 'signed-out';
  const at: At = { path, expired: signedOut && session.expired, notice: signedOut ? session.notice : undefined };
  const shell = (page: ReactNode) => (
    <Shell signedIn={signedIn} admin={admin}>
      {page}
    </Shell>
  );
  if (route === undefined) return shell(<NotFound />);
  if (route.access === 'anyone') return shell(route.page(at));
  if (!signedIn) return route.access === 'signed-out' ? route.page(at) : signInForm('sign-in')(at);
  if (session.recovery) return shell(<NewPassword />);
  if (route.access === 'signed-out') return shell(<Overview />);
  if (route.access === 'admin' && !admin) return shell(<NotFound />);
  return shell(route.page(at));
}
