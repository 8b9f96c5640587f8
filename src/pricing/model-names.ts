/**
 * @fileoverview When two model names are spellings of one model (docs/pricing.md, "Model
 * identity"). The price database's matcher answers with the entry that prices a name, and that
 * entry may be another model (it prices `gpt-5.2-codex` as `gpt-5.2`), so a match is taken as the
 * name's identity only when the two are spellings of each other: they differ only in a provider
 * prefix, a date suffix, `-latest`, a `-0` minor version, case, or `@`/`.`/`_`/`:` for `-`.
 */

const DATE_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The name without provider prefix and date suffix, trimmed and lower-cased: a model's own id. */
export function ownModelId(raw: string): string {
  const name = raw.trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  if (bare === '') return name;
  const undated = bare.replace(/@(\d{8})$/, '-$1').replace(DATE_SUFFIX, '');
  return undated === '' ? bare : undated;
}

/** A key equal for every spelling of one model. */
export function spellingKey(name: string): string {
  return ownModelId(name)
    .replace(/[@._:\s]+/g, '-')
    .replace(DATE_SUFFIX, '')
    .replace(/-latest$/, '')
    .replace(/-0$/, '');
}

/** True when `a` and `b` are spellings of the same model. */
export function sameModel(a: string, b: string): boolean {
  return spellingKey(a) === spellingKey(b);
}
