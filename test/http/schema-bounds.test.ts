/**
 * The rule every body schema keeps (http/schema-bounds.ts): each list has a maxItems and each
 * string a maxLength, wherever it sits; a route whose body breaks it does not start.
 */
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { unboundedAt } from '../../src/http/schema-bounds.js';
import { validatorCompiler } from '../../src/http/validation.js';

describe('body schemas bound every list and string', () => {
  it('finds the first unbounded list or string, however deep', () => {
    const bounded = Type.String({ maxLength: 8 });
    expect(unboundedAt(Type.Object({ a: bounded, b: Type.Integer(), c: Type.Boolean() }))).toBeUndefined();
    expect(unboundedAt(Type.Object({ a: Type.String() }))).toBe('/properties/a (a string without maxLength)');
    expect(unboundedAt(Type.Object({ a: Type.Array(bounded) }))).toBe('/properties/a (a list without maxItems)');
    expect(unboundedAt(Type.Object({ a: Type.Array(Type.String(), { maxItems: 3 }) }))).toBe(
      '/properties/a/items (a string without maxLength)',
    );
    expect(
      unboundedAt(Type.Object({ a: Type.Optional(Type.Union([Type.Object({ b: Type.String() }), Type.Null()])) })),
    ).toBe('/properties/a/anyOf/0/properties/b (a string without maxLength)');
    expect(unboundedAt(Type.Object({}, { additionalProperties: Type.Array(bounded) }))).toBe(
      '/additionalProperties (a list without maxItems)',
    );
  });

  it('takes fixed values and UUIDs as bounded strings', () => {
    expect(
      unboundedAt(
        Type.Object({
          mode: Type.Union([Type.Literal('a'), Type.Literal('b')]),
          id: Type.String({ format: 'uuid' }),
          kind: Type.String({ enum: ['x', 'y'] }),
        }),
      ),
    ).toBeUndefined();
    expect(unboundedAt(Type.Object({ at: Type.String({ format: 'date-time' }) }))).toBe(
      '/properties/at (a string without maxLength)',
    );
  });

  it('refuses to register a route whose body leaves a list unbounded', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.post('/x', { schema: { body: Type.Object({ items: Type.Array(Type.Integer()) }) } }, () => ({}));
    await expect(app.ready()).rejects.toThrow(/POST \/x must bound every list and string/);
    await app.close();
  });
});
