/**
 * @fileoverview The Fastify instance every server process serves with: its timeouts, body limit,
 * proxy trust, URL rewriting, validator and the headers every answer carries. The composition root
 * (app.ts) creates it first and registers the HTTP behaviour and routes on it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { App } from '../app-types.js';
import { trustProxyOption } from '../app-options.js';
import type { Config } from '../config.js';
import { answerFrameworkError, NOSNIFF } from './client-errors.js';
import { clientErrorHandler } from './connection.js';
import { lazyChildLoggers } from './lazy-logger.js';
import { OneLinePerRequest } from './request-log.js';
import { canonicalFunctionUrl } from './operation-aliases.js';
import { validatorCompiler } from './validation.js';

export function createFastify(config: Config, logger: Logger): App {
  const app: App = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new OneLinePerRequest(logger),
    childLoggerFactory: lazyChildLoggers,
    bodyLimit: config.limits.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    rewriteUrl: (request) => canonicalFunctionUrl(request.url ?? '/'),
    // A client gets this long for its headers, and for its whole request (headers and body); then
    // 408 and the connection closes (http/connection.ts). Node checks its connections on a timer.
    requestTimeout: config.timeouts.requestMs,
    http: {
      headersTimeout: config.timeouts.headersMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(config.timeouts.headersMs / 4))),
    },
    clientErrorHandler,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(NOSNIFF);
    done();
  });
  return app;
}
