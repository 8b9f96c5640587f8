/**
 * @fileoverview Schema compilers. Bodies are validated strictly (unknown fields are an error, never
 * silently removed; no type coercion). Query strings may coerce ("7" → 7), as URLs carry only text;
 * a query parameter the domain reads from text (schemas/text-params.ts) is checked as text, then
 * read by the domain, whose refusal is the answer. No string a schema accepts — body, query or
 * path — may hold a control character (U+0000–U+001F, U+007F–U+009F): names, e-mails and ids are
 * single-line text, and PostgreSQL refuses NUL outright.
 *
 * A failing body costs little whatever it holds (docs/security.md, "Input and responses"): it is
 * checked first by a validator that stops at the first error; only a small body (at most
 * SMALL_BODY_NODES values) is checked again for all its errors, and an answer lists at most
 * MAX_FIELD_ERRORS of them, each path cut to MAX_PATH_LENGTH characters. (Collecting every error
 * of a mebibyte of `{}` once took seconds and answered 46 MB.)
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { textReaderOf, type TextReader } from '../schemas/text-params.js';
import { problems, type FieldError } from './problem.js';
import { unboundedAt } from './schema-bounds.js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as FormatsPlugin;

/** The most field errors a problem document lists. */
export const MAX_FIELD_ERRORS = 20;
/** The longest path a field error names (a field name can be as long as the body). */
export const MAX_PATH_LENGTH = 200;
/** A failing body of at most this many values (array items and object fields) is checked again for all its errors. */
const SMALL_BODY_NODES = 2000;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

const strictAjv = makeAjv({ coerceTypes: false, allErrors: false });
const strictAllErrorsAjv = makeAjv({ coerceTypes: false });
const queryAjv = makeAjv({ coerceTypes: true });

// eslint-disable-next-line no-control-regex -- the point of this expression
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether any string (or key) of a parsed value holds a control character: the check every accepted
 * body and query string goes through, so it builds no path (building one per key cost several
 * times the check itself on a 10-bucket upload; docs/decisions.md, "Speed").
 */
function holdsControlCharacter(value: unknown): boolean {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (holdsControlCharacter(value[i])) return true;
    return false;
  }
  for (const key of Object.keys(value)) {
    if (CONTROL_CHARACTER.test(key) || holdsControlCharacter((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** The JSON-pointer path of the first string (or key) holding a control character, if any. */
export function controlCharacterPath(value: unknown): string | undefined {
  return holdsControlCharacter(value) ? pathOfControlCharacter(value, '') : undefined;
}

function pathOfControlCharacter(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = pathOfControlCharacter(value[i], `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (CONTROL_CHARACTER.test(key)) return at;
    const found = pathOfControlCharacter(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Whether a parsed value holds at most `limit` values in all (counting stops past the limit). */
function holdsAtMost(value: unknown, limit: number): boolean {
  let left = limit;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    const inner = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    left -= inner.length;
    if (left < 0) return false;
    for (const i of inner) stack.push(i);
  }
  return true;
}

/** `text` cut to `max` characters, marked with an ellipsis when cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An error whose path and named field are cut to MAX_PATH_LENGTH, so no answer repeats a huge field name. */
function bounded(error: ErrorObject): ErrorObject {
  const params = error.params as Record<string, unknown>;
  const named = ['additionalProperty', 'missingProperty'].find((k) => typeof params[k] === 'string');
  if (
    error.instancePath.length <= MAX_PATH_LENGTH &&
    (named === undefined || String(params[named]).length <= MAX_PATH_LENGTH)
  )
    return error;
  return {
    ...error,
    instancePath: cut(error.instancePath, MAX_PATH_LENGTH),
    params: named === undefined ? params : { ...params, [named]: cut(String(params[named]), MAX_PATH_LENGTH) },
  };
}

/**
 * A body's validator: the first error of any body; all of them (at most MAX_FIELD_ERRORS) of a small
 * one. Ajv cannot stop after N errors, so the bound comes from the body's size.
 */
function firstErrors(schema: object): ValidateFunction {
  const first = strictAjv.compile(schema);
  let all: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    if (first(data)) {
      validate.errors = null;
      return true;
    }
    let errors = first.errors ?? [];
    if (holdsAtMost(data, SMALL_BODY_NODES)) {
      all ??= strictAllErrorsAjv.compile(schema);
      all(data);
      errors = all.errors ?? errors;
    }
    validate.errors = errors.slice(0, MAX_FIELD_ERRORS).map(bounded);
    return false;
  }) as ValidateFunction;
  return validate;
}

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
    checked.errors = [
      {
        instancePath: cut(at, MAX_PATH_LENGTH),
        schemaPath: '#',
        keyword: 'controlCharacter',
        params: {},
        message: 'must not contain control characters',
      },
    ];
    return false;
  };
  return checked;
}

/**
 * A query string's validator. Without text-read parameters, the schema's own check. With them:
 * the text is checked first (each such parameter as a string of at most its `maxLength`, the
 * others as declared, no control characters), then each is read in declaration order — the order
 * the use cases check their parameters in — and replaced by what was read (removed when blank).
 * The first refusal is a 400 naming its parameter, in the domain's words.
 */
function queryValidator(schema: object): ReturnType<FastifySchemaCompiler<unknown>> {
  const properties: Record<string, unknown> =
    'properties' in schema && typeof schema.properties === 'object' && schema.properties !== null
      ? { ...schema.properties }
      : {};
  const readers: [string, TextReader][] = [];
  for (const [name, property] of Object.entries(properties)) {
    const reader = textReaderOf(property);
    if (reader === undefined) continue;
    readers.push([name, reader]);
    properties[name] = { type: 'string', maxLength: reader.maxLength };
  }
  if (readers.length === 0) return refusingControlCharacters(queryAjv.compile(schema));
  const checkText = refusingControlCharacters(queryAjv.compile({ ...schema, properties }));
  const validate: ReturnType<FastifySchemaCompiler<unknown>> = (query: object) => {
    if (!checkText(query)) {
      validate.errors = checkText.errors;
      return false;
    }
    for (const [name, reader] of readers) {
      const text: unknown = Reflect.get(query, name);
      if (typeof text !== 'string') continue;
      const reading = reader.read(text);
      if ('refused' in reading)
        return { error: problems.invalidField(`/querystring/${reading.refused.param}`, reading.refused.message) };
      if (reading.value === undefined) Reflect.deleteProperty(query, name);
      else Reflect.set(query, name, reading.value);
    }
    return true;
  };
  return validate;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, method, url }) => {
  if (httpPart === 'querystring') return queryValidator(schema as object);
  if (httpPart === 'body') {
    const unbounded = unboundedAt(schema);
    if (unbounded !== undefined)
      throw new Error(`The body schema of ${method} ${url} must bound every list and string: ${unbounded || '/'}`);
  }
  return refusingControlCharacters(firstErrors(schema as object));
};

/** Turns ajv errors into the problem document's `errors` list with JSON-pointer-like paths. */
export function toFieldErrors(errors: readonly ErrorObject[], context: string): FieldError[] {
  return errors.slice(0, MAX_FIELD_ERRORS).map((error) => {
    let path = `/${context}${error.instancePath}`;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string')
      path += `/${params.missingProperty}`;
    if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      return { path: `${path}/${params.additionalProperty}`, message: 'is not an allowed field' };
    }
    if (error.keyword === 'required') return { path, message: 'is required' };
    return { path, message: error.message ?? 'is invalid' };
  });
}
