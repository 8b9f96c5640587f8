/**
 * The HTTP edge's answer to each domain error (http/domain-errors.ts): the same problem documents
 * and headers the problem helpers give, and through the error handler the same responses, on
 * /auth/v1 with GoTrue's error_code too.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../../src/db/sqlite-busy.js';
import {
  Busy,
  Conflict,
  fieldName,
  Forbidden,
  invalidField,
  InvalidInput,
  NotFound,
  Refused,
  Unauthenticated,
  type DomainError,
} from '../../src/domain/errors.js';
import { InvalidParamError } from '../../src/domain/param-error.js';
import { fieldPointer, problemOf } from '../../src/http/domain-errors.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { AppError, problems } from '../../src/http/problem.js';

/** What a client sees of an AppError: status, headers and document. */
function seen(error: AppError) {
  return { status: error.status, headers: error.headers, problem: error.toProblem(), authCode: error.authCode };
}

describe('domain errors at the HTTP edge', () => {
  it('names fields as pointers and in sentences', () => {
    expect(fieldPointer({ in: 'body', field: 'link_code' })).toBe('/body/link_code');
    expect(fieldPointer({ in: 'body', field: 'data.hourly.0.hour_start' })).toBe('/body/data/hourly/0/hour_start');
    expect(fieldPointer({ in: 'querystring', field: 'tz' })).toBe('/querystring/tz');
    expect(fieldPointer({ field: 'hourly' })).toBe('/hourly');
    expect(fieldName({ in: 'body', field: 'hourly.3.hour_start' })).toBe('body.hourly.3.hour_start');
    expect(fieldName({ field: 'hourly' })).toBe('hourly');
  });

  it('answers each kind as the problem helpers do', () => {
    const pairs: Array<[DomainError, AppError]> = [
      [
        invalidField({ in: 'body', field: 'link_code' }, 'is unknown'),
        problems.invalidField('/body/link_code', 'is unknown'),
      ],
      [
        new InvalidParamError('tz', 'tz "x" is not a known IANA time zone'),
        problems.invalidField('/querystring/tz', 'tz "x" is not a known IANA time zone'),
      ],
      [new Unauthenticated('The user no longer exists.'), problems.unauthorized('The user no longer exists.')],
      [
        new Forbidden('This user has not made their profile public.'),
        problems.forbidden('This user has not made their profile public.'),
      ],
      [new NotFound('You have no device with this id.'), problems.notFound('You have no device with this id.')],
      [
        new Conflict('This link code has already been used.'),
        problems.conflict('This link code has already been used.'),
      ],
      [
        new Busy('The leaderboard is being prepared; retry shortly.'),
        new AppError(503, 'unavailable', 'The leaderboard is being prepared; retry shortly.'),
      ],
      [
        new DatabaseBusyError(),
        new AppError(503, 'unavailable', 'The database is busy with other writes; try again shortly.', {
          headers: { 'Retry-After': '1' },
        }),
      ],
      [
        new Busy('Later.', { retryAfterSeconds: 5 }),
        new AppError(503, 'unavailable', 'Later.', { headers: { 'Retry-After': '5' } }),
      ],
    ];
    for (const [domain, expected] of pairs) expect(seen(problemOf(domain)), domain.name).toEqual(seen(expected));
  });

  it('keeps an invalid input sentence, its fields and its reason', () => {
    const bound = new InvalidInput([{ at: { field: 'hourly' }, message: 'more than 10 tokens on 2026-11-01' }], {
      detail: 'Too many tokens.',
    });
    expect(seen(problemOf(bound))).toEqual(
      seen(problems.invalid('Too many tokens.', [{ path: '/hourly', message: 'more than 10 tokens on 2026-11-01' }])),
    );

    const many = new InvalidInput(
      [
        { at: { in: 'body', field: 'hourly.0.hour_start' }, message: 'must fall on a UTC half-hour' },
        { at: { in: 'body', field: 'data.hourly.2.hour_start' }, message: 'must fall on a UTC half-hour' },
      ],
      { detail: '2 buckets rejected.' },
    );
    expect(problemOf(many).toProblem()).toMatchObject({
      status: 400,
      detail: '2 buckets rejected.',
      errors: [
        { path: '/body/hourly/0/hour_start', message: 'must fall on a UTC half-hour' },
        { path: '/body/data/hourly/2/hour_start', message: 'must fall on a UTC half-hour' },
      ],
    });

    const credentials = new InvalidInput([], { detail: 'Invalid login credentials.', reason: 'invalid_credentials' });
    expect(seen(problemOf(credentials))).toEqual(
      seen(new AppError(400, 'invalid_request', 'Invalid login credentials.', { authCode: 'invalid_credentials' })),
    );
    expect(problemOf(credentials).toProblem()).not.toHaveProperty('errors');

    const same = new Refused('The new password must be different from the current one.', { reason: 'same_password' });
    expect(seen(problemOf(same))).toEqual(
      seen(
        new AppError(422, 'invalid_request', 'The new password must be different from the current one.', {
          authCode: 'same_password',
        }),
      ),
    );
    const taken = new Conflict('A user with this e-mail address already exists.', { reason: 'user_already_exists' });
    expect(problemOf(taken)).toMatchObject({ status: 409, code: 'conflict', authCode: 'user_already_exists' });
  });

  describe('through the error handler', () => {
    let app: FastifyInstance;
    const thrown: Record<string, DomainError> = {
      field: invalidField({ in: 'body', field: 'name' }, 'must not be empty'),
      gone: new Unauthenticated('The share token no longer belongs to a user.'),
      busy: new DatabaseBusyError(),
      refused: new Refused('The password must be at least 8 characters long.', { reason: 'weak_password' }),
    };

    beforeAll(async () => {
      app = Fastify();
      registerErrorHandling(app, () => []);
      for (const prefix of ['/functions', '/auth/v1']) {
        app.get(`${prefix}/:what`, async (request) => {
          throw thrown[(request.params as { what: string }).what];
        });
      }
      await app.ready();
    });
    afterAll(async () => app.close());

    it('renders problem+json with the status, headers and fields of the kind', async () => {
      const field = await app.inject({ url: '/functions/field' });
      expect(field.statusCode).toBe(400);
      expect(field.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(field.json()).toEqual({
        type: 'https://tokentally.dev/problems/invalid-request',
        title: 'Invalid request',
        status: 400,
        detail: 'body.name: must not be empty',
        code: 'invalid_request',
        error: 'invalid_request',
        message: 'body.name: must not be empty',
        errors: [{ path: '/body/name', message: 'must not be empty' }],
      });

      const gone = await app.inject({ url: '/functions/gone' });
      expect(gone.statusCode).toBe(401);
      expect(gone.headers['www-authenticate']).toBe('Bearer');
      expect(gone.json()).toMatchObject({
        code: 'unauthorized',
        title: 'Unauthorized',
        detail: 'The share token no longer belongs to a user.',
      });

      const busy = await app.inject({ url: '/functions/busy' });
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json()).toMatchObject({ code: 'unavailable', title: 'Service unavailable' });
    });

    it('gives /auth/v1 clients the reason as error_code, else the problem code', async () => {
      const refused = await app.inject({ url: '/auth/v1/refused' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'invalid_request',
        error_code: 'weak_password',
        msg: 'The password must be at least 8 characters long.',
      });
      expect((await app.inject({ url: '/auth/v1/field' })).json()).toMatchObject({
        error_code: 'invalid_request',
        msg: 'body.name: must not be empty',
      });
      expect((await app.inject({ url: '/functions/refused' })).json()).not.toHaveProperty('error_code');
    });
  });
});
