/**
 * @fileoverview The rule every body schema keeps: each list has a `maxItems` and each string a
 * `maxLength` (or is one of fixed values, or a UUID), so what a body may make the server hold,
 * validate or echo is bounded by the schema, not only by the 1 MiB body limit. Checked when a
 * route is registered (http/validation.ts): a route whose body schema breaks it does not start,
 * so a surface added later is bounded the same way (docs/security.md, "Input and responses").
 */

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null;

/** Whether a string schema accepts only strings of bounded length. */
function boundedString(node: SchemaNode): boolean {
  return typeof node.maxLength === 'number' || 'const' in node || Array.isArray(node.enum) || node.format === 'uuid';
}

/** The JSON pointer (into the schema) of the first list or string left unbounded, if any. */
export function unboundedAt(schema: unknown, at = ''): string | undefined {
  if (!isNode(schema)) return undefined;
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  if (types.includes('array') && typeof schema.maxItems !== 'number') return `${at} (a list without maxItems)`;
  if (types.includes('string') && !boundedString(schema)) return `${at} (a string without maxLength)`;
  const children: [string, unknown][] = [];
  if (isNode(schema.properties))
    for (const [name, child] of Object.entries(schema.properties)) children.push([`/properties/${name}`, child]);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, i) => children.push([`/${key}/${i}`, child]));
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const)
    if (isNode(schema[key])) children.push([`/${key}`, schema[key]]);
  for (const [path, child] of children) {
    const found = unboundedAt(child, `${at}${path}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
