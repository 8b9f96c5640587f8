/** @fileoverview Route-level hooks given at registration (onRoute), so no rule is looked up per request. */

/** A route's hooks of one kind as a list (Fastify takes one hook or a list). */
export function hookList<H>(hooks: H | H[] | undefined): H[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
