/**
 * @fileoverview Query parameters the domain reads from text. A URL carries only text; the schema
 * says what a parameter is (type, bounds, enum: the OpenAPI document and the handler's types),
 * and the domain's parser turns the text into it, refusing bad text in its own words with the
 * parameter named. The query-string validator (http/validation.ts) checks such a parameter as
 * text of at most `maxLength` characters, then reads it; the handler receives what was read.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { isInvalidParamError } from '../domain/param-error.js';

/** What reading one parameter's text gave: its value (undefined: blank, as if absent) or the domain's refusal. */
export type TextReading =
  { readonly value: unknown } | { readonly refused: { readonly param: string; readonly message: string } };

export interface TextReader {
  /** The longest text accepted before it is read. */
  readonly maxLength: number;
  read(text: string): TextReading;
}

// Keyed by the property schema itself: TypeBox's Type.Object keeps the property schemas it is given.
const readers = new WeakMap<object, TextReader>();

/**
 * An optional query parameter declared as `schema` and read from text by `parse`, which returns
 * undefined for blank text and throws the domain's InvalidParamError for bad text.
 */
export function textParam<S extends TSchema>(
  schema: S,
  maxLength: number,
  parse: (text: string) => Static<S> | undefined,
) {
  const param = Type.Optional(schema);
  readers.set(param, {
    maxLength,
    read(text) {
      try {
        return { value: parse(text) };
      } catch (error) {
        if (isInvalidParamError(error)) return { refused: { param: error.param, message: error.message } };
        throw error;
      }
    },
  });
  return param;
}

/** The reader of a property schema made by {@link textParam}, if it is one. */
export function textReaderOf(schema: unknown): TextReader | undefined {
  return typeof schema === 'object' && schema !== null ? readers.get(schema) : undefined;
}
