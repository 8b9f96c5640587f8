/**
 * @fileoverview The dashboard's route table: every address the app answers, its title, who may see
 * it, its place in the main navigation and its page. app.tsx draws the chosen route.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Overview } from './pages/overview.js';
import { SignIn } from './pages/sign-in.js';

const Devices = lazy(() => import('./pages/devices.js').then((m) => ({ default: m.Devices })));
const LinkPage = lazy(() => import('./pages/link.js').then((m) => ({ default: m.LinkPage })));
const Leaderboard = lazy(() => import('./pages/leaderboard.js').then((m) => ({ default: m.Leaderboard })));
const Settings = lazy(() => import('./pages/settings.js').then((m) => ({ default: m.Settings })));
const ForgotPassword = lazy(() => import('./pages/recovery.js').then((m) => ({ default: m.ForgotPassword })));
const PublicProfile = lazy(() => import('./pages/profile.js').then((m) => ({ default: m.PublicProfile })));
const SharePage = lazy(() => import('./pages/profile.js').then((m) => ({ default: m.SharePage })));
const Teams = lazy(() => import('./pages/teams.js').then((m) => ({ default: m.Teams })));
const JoinTeam = lazy(() => import('./pages/team-join.js').then((m) => ({ default: m.JoinTeam })));
const Guide = lazy(() => import('./pages/guide.js').then((m) => ({ default: m.Guide })));
const AdminPage = lazy(() => import('./pages/admin.js').then((m) => ({ default: m.AdminPage })));

export interface Route {
  /** The address, or a prefix ending in `/` for an address that carries an id (`/u/<user_id>`). */
  path: string;
  /** The document's title (`<title> · Tokentally`); none: just "Tokentally". */
  title?: string;
  /**
   * Who sees the page: `anyone`; `signed-out` visitors (drawn without the shell; a signed-in user
   * gets the overview); `signed-in` users (others: the sign-in form); `admin`s (others signed in:
   * "Not found").
   */
  access: 'anyone' | 'signed-out' | 'signed-in' | 'admin';
  /** Its label in the main navigation (signed-out visitors see only the public ones). */
  nav?: string;
  page: (at: At) => ReactNode;
}

/** What a page is drawn for: the address, and for the sign-in form why the visitor is signed out. */
export interface At {
  path: string;
  expired: boolean;
  notice: string | undefined;
}

/** The sign-in form (for a signed-in route asked for by a signed-out visitor too). */
export const signInForm = (mode: 'sign-in' | 'sign-up') => (at: At) => (
  <SignIn mode={mode} expired={at.expired} notice={at.notice} />
);

export const ROUTES: readonly Route[] = [
  { path: '/', title: 'Overview', access: 'signed-in', nav: 'Overview', page: () => <Overview /> },
  { path: '/devices', title: 'Devices', access: 'signed-in', nav: 'Devices', page: () => <Devices /> },
  { path: '/teams', title: 'Teams', access: 'signed-in', nav: 'Teams', page: () => <Teams /> },
  { path: '/leaderboard', title: 'Leaderboard', access: 'anyone', nav: 'Leaderboard', page: () => <Leaderboard /> },
  { path: '/settings', title: 'Settings', access: 'signed-in', nav: 'Settings', page: () => <Settings /> },
  { path: '/admin', title: 'Admin', access: 'admin', nav: 'Admin', page: () => <AdminPage /> },
  { path: '/join', title: 'Join a team', access: 'signed-in', page: () => <JoinTeam /> },
  { path: '/link', title: 'Link a machine', access: 'signed-in', page: () => <LinkPage /> },
  { path: '/share', title: 'Shared profile', access: 'anyone', page: () => <SharePage /> },
  { path: '/guide', title: 'User guide', access: 'anyone', page: () => <Guide /> },
  {
    path: '/u/',
    title: 'Profile',
    access: 'anyone',
    page: ({ path }) => <PublicProfile userId={decodeURIComponent(path.slice(3))} />,
  },
  { path: '/sign-in', access: 'signed-out', page: signInForm('sign-in') },
  { path: '/sign-up', access: 'signed-out', page: signInForm('sign-up') },
  {
    path: '/forgot-password',
    title: 'Reset your password',
    access: 'signed-out',
    page: () => (
      <Suspense fallback={<div className="boot" aria-busy="true" />}>
        <ForgotPassword />
      </Suspense>
    ),
  },
];

/** The route of an address; undefined: "Not found". */
export function routeOf(path: string): Route | undefined {
  return ROUTES.find((r) => (r.path.endsWith('/') && r.path !== '/' ? path.startsWith(r.path) : path === r.path));
}
