/**
 * @fileoverview PostgreSQL array literals for the `unnest` parameters of the ingest writer
 * (db/queries/ingest-postgres.ts), built directly. node-postgres turns a JavaScript array into the
 * same literal through its general value conversion, quoting every element and running two
 * regular-expression replacements on each, numbers included: for a group's few thousand elements,
 * most of the writer's own CPU in node-postgres (docs/decisions.md, "Ingest on PostgreSQL").
 */

/** What an element of an `unnest` parameter may be: text, an integer, or NULL. */
export type ArrayElement = string | number | bigint | null | undefined;

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

function element(value: ArrayElement): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`;
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer to store: ${value}`);
  return String(value);
}

/**
 * The literal of a one-dimensional array (`{"a",NULL,"b\"c"}`, `{1,2,3}`), read by PostgreSQL
 * exactly as node-postgres's own conversion of the same array: text always quoted (so `NULL`,
 * empty strings, braces, commas and spaces stay text), `"` and `\` escaped, integers bare.
 */
export function arrayLiteral(values: readonly ArrayElement[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) literal += ',';
    literal += element(values[i]);
  }
  return `${literal}}`;
}

/** One array literal per getter, over the same rows: the columns of an `unnest`. */
export function arrayColumns<T>(rows: readonly T[], ...getters: ((row: T) => ArrayElement)[]): string[] {
  return getters.map((get) => {
    const values: ArrayElement[] = new Array<ArrayElement>(rows.length);
    for (let i = 0; i < rows.length; i += 1) values[i] = get(rows[i] as T);
    return arrayLiteral(values);
  });
}
