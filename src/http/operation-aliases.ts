/**
 * @fileoverview The seed system's names for our operations (docs/compatibility.md). Its CLI calls
 * `/functions/vibescore-<op>`, its dashboard `/functions/vibeusage-<op>` and, after a 404,
 * `/api/functions/<name>`. Each is rewritten to `/functions/svc-<op>` before routing, so an alias
 * is the operation itself: same handler, same access rule, same body rule, and it is not a path of
 * its own in /openapi.json.
 */

const ALIAS = /^(?:\/api)?\/functions\/(?:vibescore|vibeusage|svc)-/;

/** The path an aliased request is served under; any other URL unchanged. */
export function canonicalFunctionUrl(url: string): string {
  // The common case (our own names) costs one comparison.
  if (url.startsWith('/functions/svc-')) return url;
  const match = ALIAS.exec(url);
  return match ? `/functions/svc-${url.slice(match[0].length)}` : url;
}
