/**
 * @fileoverview getBadge (`/badge/<user_id>.svg`) and getCard (`/card/<user_id>.svg`, or `.png`
 * for link previews, which take no SVG): public images for README files, cacheable (Cache-Control for the snapshot interval, a strong ETag,
 * 304 on If-None-Match). Anonymous; a bearer, if any, is ignored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { problems } from '../http/problem.js';
import { BadgeParams, BadgeQuery, CardQuery } from '../schemas/badges.js';
import { rawResponses } from '../schemas/common.js';
import type { BadgeService, Image, PngImage } from '../services/badges.js';
import { operation } from './operation.js';

const SVG_OK = {
  description: 'An SVG image (a neutral "not public" one for anyone who is not public).',
  content: { 'image/svg+xml': { schema: { type: 'string' } } },
};

const CARD_OK = {
  ...SVG_OK,
  content: { ...SVG_OK.content, 'image/png': { schema: { type: 'string', format: 'binary' } } },
};

/** The user id of `<user_id>.svg` (or `.png` where allowed); anything else is not an image of ours (404). */
function userIdOf(file: string, png = false): string {
  if (file.endsWith('.svg') || (png && file.endsWith('.png'))) return file.slice(0, -4);
  throw problems.notFound(
    png ? 'Cards are served as <user_id>.svg or <user_id>.png.' : 'Images are served as <user_id>.svg.',
  );
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
  const send = (request: FastifyRequest, reply: FastifyReply, img: Image | PngImage) => {
    void reply
      .header('content-type', 'svg' in img ? 'image/svg+xml; charset=utf-8' : 'image/png')
      .header('cache-control', `public, max-age=${maxAgeSeconds}`)
      .header('etag', img.etag)
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    if (matches(request.headers['if-none-match'], img.etag)) return reply.code(304).send();
    return reply.send('svg' in img ? img.svg : img.png);
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
        description: '`<user_id>.png`: the same card as an 880 × 360 PNG, for link previews.',
        tags: ['sharing'],
      },
      { params: BadgeParams, querystring: CardQuery, response: rawResponses(CARD_OK, 400, 404) },
    ),
    async (request, reply) => {
      const q = request.query;
      const file = request.params.file;
      const args = [userIdOf(file, true), q.period ?? 'week', q.metric ?? 'all', q.theme ?? 'light'] as const;
      return send(request, reply, await (file.endsWith('.png') ? badges.cardPng(...args) : badges.card(...args)));
    },
  );
}
