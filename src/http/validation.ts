/**
 * @fileoverview Schema compilers. Bodies are validated strictly (unknown fields are an error, never
 * silently removed; no type coercion). Query strings may coerce ("7" → 7), as URLs carry only text.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
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

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'querystring' ? queryAjv : strictAjv;
  return ajv.compile(schema as object);
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
