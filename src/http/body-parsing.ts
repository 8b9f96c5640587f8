/**
 * @fileoverview Body rules of the interface (docs/interface.md): JSON only (415 otherwise, for operations that take a
 * body), an empty body counts as no body, operations that take no body ignore whatever is sent.
 */
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { holdsMoreValuesThan, MAX_BODY_DEPTH, MAX_BODY_VALUES, nestsDeeperThan } from './json-bounds.js';
import { AppError, problems } from './problem.js';
import { hookList } from './route-hooks.js';

/** Marks a body that was sent with a content type we do not parse. */
const UNSUPPORTED_BODY = Symbol('unsupported body');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body may be absent; absent counts as `{}`. */
    optionalBody?: boolean;
  }
}

export function registerBodyParsing(app: FastifyInstance): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/(.+\+)?json(\s*;.*)?$/i, { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      done(problems.invalid(`The body nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays.`), undefined);
      return;
    }
    if (holdsMoreValuesThan(text, MAX_BODY_VALUES)) {
      done(
        problems.tooLarge(`The body holds more than ${MAX_BODY_VALUES} values; no operation takes that many.`),
        undefined,
      );
      return;
    }
    // Only this parser's failures are "not valid JSON" (a SyntaxError elsewhere is the server's own fault).
    defaultJson(request, text, (error, parsed) =>
      error ? done(problems.invalid('The body is not valid JSON.'), undefined) : done(null, parsed),
    );
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, (body as Buffer).length === 0 ? undefined : UNSUPPORTED_BODY);
  });

  // Each route's rule is settled when it is registered, not looked up per request.
  app.addHook('onRoute', (route) => {
    const takesBody = route.schema?.body !== undefined;
    const optionalBody = route.config?.optionalBody === true;
    const bodyRule: preValidationHookHandler = (request, _reply, done) => {
      if ((request.body as unknown) === UNSUPPORTED_BODY) {
        if (takesBody)
          return done(
            new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.'),
          );
        request.body = undefined;
      }
      if (optionalBody && takesBody && request.body === undefined) request.body = {};
      done();
    };
    route.preValidation = [bodyRule, ...hookList(route.preValidation)];
  });
}
