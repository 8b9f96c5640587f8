/**
 * @fileoverview getBadge (`/badge/<user_id>.svg`) and getCard (`/card/<user_id>.svg`): public
 * images for README files, cacheable (Cache-Control for the snapshot interval, a strong ETag,
 * 304 on If-None-Match). Anonymous; a bearer, if any, is ignored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { problems } from '../http/problem.js';
import { BadgeParams, BadgeQuery, CardQuery } from '../schemas/badges.js';
import { rawResponses } from '../schemas/common.js';
import type { BadgeService, Image } from '../services/badges.js';
import { operation } from './operation.js';

const SVG_OK = {
  description: 'An SVG image (a neutral "not public" one for anyone who is not public).',
  content: { 'image/svg+xml': { schema: { type: 'string' } } },
};

/** The user id of `<user_id>.svg`; anything else is not an image of ours (404). */
function userIdOf(file: string): string {
  if (!file.endsWith('.svg')) throw problems.notFound('Images are served as <user_id>.svg.');
  return file.slice(0, -4);
}

/** True when an If-None-Match list names this ETag (weak or strong, or `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

export function registerBadgeRoutes(app: App, deps: { badges: BadgeService; maxAgeSeconds: number }): void {
  const { badges, maxAgeSeconds } = deps;
  const send = (request: FastifyRequest, reply: FastifyReply, img: Image) => {
    void reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', `public, max-age=${maxAgeSeconds}`)
      .header('etag', img.etag)
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    if (matches(request.headers['if-none-match'], img.etag)) return reply.code(304).send();
    return reply.send(img.svg);
  };

  app.get(
    '/badge/:file',
    operation(
      {
        operationId: 'getBadge',
        summary: 'A README badge of a public user\'s tokens ("AI tokens · 12.4M this week")',
        tags: ['sharing'],
      },
      { params: BadgeParams, querystring: BadgeQuery, response: rawResponses(SVG_OK, 400, 404) },
    ),
    async (request, reply) => {
      const q = request.query;
      return send(
        request,
        reply,
        await badges.badge(userIdOf(request.params.file), q.period ?? 'week', q.metric ?? 'all'),
      );
    },
  );

  app.get(
    '/card/:file',
    operation(
      {
        operationId: 'getCard',
        summary: 'A profile card of a public user: tokens, rank, top model family, 12 weeks',
        tags: ['sharing'],
      },
      { params: BadgeParams, querystring: CardQuery, response: rawResponses(SVG_OK, 400, 404) },
    ),
    async (request, reply) => {
      const q = request.query;
      return send(
        request,
        reply,
        await badges.card(userIdOf(request.params.file), q.period ?? 'week', q.metric ?? 'all', q.theme ?? 'light'),
      );
    },
  );
}
