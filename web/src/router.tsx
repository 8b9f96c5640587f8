/** @fileoverview A tiny history router: every bookmarkable state lives in the path and query. */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
/** When the location last changed (the page's load, a navigation). */
let changedAt = Date.now();
const notify = () => {
  changedAt = Date.now();
  listeners.forEach((l) => l());
};
window.addEventListener('popstate', notify);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => location.pathname + location.search + location.hash;

/** The current location; re-renders on navigation. */
export function useLocation(): { path: string; query: URLSearchParams; hash: string } {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, location.origin);
  return { path: url.pathname, query: url.searchParams, hash: url.hash.slice(1) };
}

/** The "now" of the view outside a component (the first page's reads, started before it renders). */
export const viewTime = (): number => changedAt;

/**
 * The "now" of the view: when the location last changed, in epoch milliseconds. A page that asks
 * for "today" gets a new one with every change of view and the same one across its re-renders.
 */
export function useViewTime(): number {
  return useSyncExternalStore(subscribe, () => changedAt);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
  if (!options.replace) window.scrollTo(0, 0);
}

/** Sets query parameters on the current path (null removes one), replacing the history entry unless `push`. */
export function setQuery(changes: Record<string, string | null>, push = false): void {
  const url = new URL(location.href);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  navigate(url.pathname + url.search, { replace: !push });
}

export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, onClick, ...rest } = props;
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (
      e.defaultPrevented ||
      e.button !== 0 ||
      e.metaKey ||
      e.ctrlKey ||
      e.shiftKey ||
      e.altKey ||
      !href.startsWith('/')
    )
      return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
