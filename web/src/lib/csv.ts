/**
 * @fileoverview RFC 4180 CSV of exactly what a table shows. A text cell a spreadsheet would read as
 * a formula (it begins with `=`, `+`, `-`, `@`, a tab or a CR: a device, model or project named so)
 * gets a `'` before it (OWASP, "CSV Injection"); numbers are written as they are.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One header line and one line per row, CRLF-separated, ending with CRLF. Pass a number as a
 * number: a string is text, neutralised when it begins like a formula.
 */
export function toCsv(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return [headers, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
