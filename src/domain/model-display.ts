/**
 * @fileoverview How a model id is shown to a person: a release-dated id is folded into its
 * undated sibling (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `gpt-4o-2024-08-06` →
 * `gpt-4o`, Vertex's `claude-opus-4-1@20250805` → `claude-opus-4-1`), so one model is one row.
 * Only a trailing calendar date is removed; versions such as `gpt-5.1` or `-latest` stay.
 * Pure; used by the CLI's `report` (the stored and uploaded ids are never changed).
 */

/** A trailing `-YYYYMMDD`, `@YYYYMMDD` or `-YYYY-MM-DD` with a plausible date (2020–2099). */
const DATED =
  /^(.+?)(?:[-@](20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])|-(20\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))$/;

/** The id shown for `model`: without a trailing release date. */
export function undatedModel(model: string): string {
  const m = DATED.exec(model);
  return m?.[1] ?? model;
}
