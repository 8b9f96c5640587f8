/**
 * @fileoverview The server hands out its own, version-matched CLI: `GET /cli/tokentally.tgz` and
 * `GET /cli/tokentally-<version>.tgz` serve the npm package built beside the server
 * (scripts/build-cli.ts), so `npm install -g <server>/cli/tokentally.tgz` installs a client that
 * speaks exactly this server's interface. Another version's name, or a server started without a
 * build, gets a 404 problem document saying so.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../app-types.js';
import type { FastifyReply } from 'fastify';
import { problems } from '../http/problem.js';

export function registerCliPackageRoutes(app: App, deps: { dir: string; version: string }): void {
  const file = path.join(deps.dir, `tokentally-${deps.version}.tgz`);
  const send = async (reply: FastifyReply): Promise<unknown> => {
    let data: Buffer;
    try {
      data = await fs.promises.readFile(file);
    } catch {
      throw problems.notFound(
        `the CLI package of version ${deps.version} has not been built on this server (run \`npm run build\`)`,
      );
    }
    return reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="tokentally-${deps.version}.tgz"`)
      .header('cache-control', 'no-cache')
      .send(data);
  };
  app.get('/cli/tokentally.tgz', { schema: { hide: true } }, async (_request, reply) => send(reply));
  app.get<{ Params: { name: string } }>('/cli/:name', { schema: { hide: true } }, async (request, reply) => {
    if (request.params.name !== `tokentally-${deps.version}.tgz`) {
      throw problems.notFound(
        `this server hands out tokentally ${deps.version} only: /cli/tokentally-${deps.version}.tgz (or /cli/tokentally.tgz)`,
      );
    }
    return send(reply);
  });
}
