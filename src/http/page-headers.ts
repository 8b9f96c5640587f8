/**
 * @fileoverview The security headers of every HTML page the server serves — the dashboard and its
 * "not built" stand-in (routes/dashboard.ts), the guides under /docs (routes/discovery-docs.ts): one
 * Content-Security-Policy that allows nothing but this origin, no referrer, no framing.
 */

/** Everything from this origin only: no CDN, no other site, no inline script or style. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** The headers every served page carries. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
});
