/**
 * @fileoverview Schema compilers. Bodies are validated strictly (unknown fields are an error, never
 * silently removed; no type coercion). Query strings may coerce ("7" → 7), as URLs carry only text;
 * a query parameter the domain reads from text (schemas/text-params.ts) is checked as text, then
 * read by the domain, whose refusal is the answer. No string a schema accepts — body, query or
 * path — may hold a control character (U+0000–U+001F, U+007F–U+009F): names, e-mails and ids are
 * single-line text, and PostgreSQL refuses NUL outright.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { textReaderOf, type TextReader } from '../schemas/text-params.js';
import { problems, type FieldError } from './problem.js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as FormatsPlugin;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

const strictAjv = makeAjv({ coerceTypes: false });
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
        instancePath: at,
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

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'querystring') return queryValidator(schema as object);
  return refusingControlCharacters(strictAjv.compile(schema as object));
};

/** Turns ajv errors into the problem document's `errors` list with JSON-pointer-like paths. */
export function toFieldErrors(errors: readonly ErrorObject[], context: string): FieldError[] {
  return errors.map((error) => {
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
