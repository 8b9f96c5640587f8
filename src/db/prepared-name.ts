/**
 * @fileoverview Names of PostgreSQL prepared statements, derived from their text: each pooled
 * connection parses and plans a named statement once. One name per distinct text, so two texts
 * can never share a name (node-postgres refuses a name reused with another text) and callers need
 * not invent names.
 */
const names = new Map<string, string>();

export function preparedName(text: string): string {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `tt_stmt_${names.size}`));
  return name;
}
