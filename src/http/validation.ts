/**
 * @fileoverview Schema compilers. Bodies are validated strictly (unknown fields are an error, never
 * silently removed; no type coercion). Query strings may coerce ("7" → 7), as URLs carry only text.
 * No string a schema accepts — body, query or path — may hold a control character (U+0000–U+001F,
 * U+007F–U+009F): names, e-mails and ids are single-line text, and PostgreSQL refuses NUL outright.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from './problem.js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

const strictAjv = makeAjv({ coerceTypes: false });
const queryAjv = makeAjv({ coerceTypes: true });

// eslint-disable-next-line no-control-regex -- the point of this expression
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The JSON-pointer path of the first string (or key) holding a control character, if any. */
export function controlCharacterPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = controlCharacterPath(value[i], `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (CONTROL_CHARACTER.test(key)) return at;
    const found = controlCharacterPath(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The schema's own check, then no control characters anywhere in what it accepted. */
function refusingControlCharacters(validate: ValidateFunction): Validator {
  const checked: Validator = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors ?? null;
      return false;
    }
    const at = controlCharacterPath(data);
    if (at === undefined) {
      checked.errors = null;
      return true;
    }
    checked.errors = [{ instancePath: at, schemaPath: '#', keyword: 'controlCharacter', params: {}, message: 'must not contain control characters' }];
    return false;
  };
  return checked;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'querystring' ? queryAjv : strictAjv;
  return refusingControlCharacters(ajv.compile(schema as object));
};

/** Turns ajv errors into the problem document's `errors` list with JSON-pointer-like paths. */
export function toFieldErrors(errors: readonly ErrorObject[], context: string): FieldError[] {
  return errors.map((error) => {
    let path = `/${context}${error.instancePath}`;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') path += `/${params.missingProperty}`;
    if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      return { path: `${path}/${params.additionalProperty}`, message: 'is not an allowed field' };
    }
    if (error.keyword === 'required') return { path, message: 'is required' };
    return { path, message: error.message ?? 'is invalid' };
  });
}
