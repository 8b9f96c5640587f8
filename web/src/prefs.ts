/** @fileoverview The viewer's preferences (default zone, week start, theme), kept in this browser. */
import { useSyncExternalStore } from 'react';
import { isValidZone } from './lib/dates.js';
import type { WeekStart } from './lib/ranges.js';

export type Theme = 'system' | 'light' | 'dark';

export interface Prefs {
  zone: string | null;
  weekStart: WeekStart;
  theme: Theme;
}

const KEY = 'tokentally.prefs';
const listeners = new Set<() => void>();

function read(): Prefs {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Prefs>;
    return {
      zone: typeof raw.zone === 'string' && isValidZone(raw.zone) ? raw.zone : null,
      weekStart: raw.weekStart === 'mon' ? 'mon' : 'sun',
      theme: raw.theme === 'light' || raw.theme === 'dark' ? raw.theme : 'system',
    };
  } catch {
    return { zone: null, weekStart: 'sun', theme: 'system' };
  }
}

let current = read();

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The preferences outside a component. */
export const currentPrefs = (): Prefs => current;

export function usePrefs(): Prefs {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

export function savePrefs(change: Partial<Prefs>): void {
  current = { ...current, ...change };
  localStorage.setItem(KEY, JSON.stringify(current));
  applyTheme(current.theme);
  listeners.forEach((l) => l());
}

export function applyTheme(theme: Theme = current.theme): void {
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset['theme'] = dark ? 'dark' : 'light';
}

matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme());
