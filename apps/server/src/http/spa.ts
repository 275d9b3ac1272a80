import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { serverPackageRoot } from '../lib/paths.js';

export function findWebDist(configured: string | undefined): string | null {
  const dir = configured ? resolve(configured) : join(serverPackageRoot(), '..', 'web', 'dist');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

/**
 * Serves the built SPA at `/` with history fallback: a path that is not a file gets index.html,
 * except under the API prefix, where unknown paths keep answering the API's 404 envelope.
 *
 * The web build writes `.br` and `.gz` next to every text file (apps/web/build/precompress.ts);
 * `preCompressed` sends the best one the browser accepts, with Content-Encoding and
 * `Vary: Accept-Encoding`, and the file itself otherwise. Hashed files under assets/ never
 * change, so browsers keep them for a year without asking; index.html names the current ones and
 * is revalidated on every visit.
 */
export async function serveSpa(app: FastifyInstance, root: string, apiBasePath: string) {
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
  const apiPrefix = apiBasePath ? `${apiBasePath}/` : null;

  app.get(
    '/*',
    { config: { access: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const path = request.url.split('?')[0]!;
      if (
        (apiPrefix && (path.startsWith(apiPrefix) || path === apiBasePath)) ||
        request.method !== 'GET'
      ) {
        return reply.callNotFound();
      }
      const relative = decodeURIComponent(path).replace(/^\/+/, '');
      const isAsset =
        relative !== '' &&
        !relative.endsWith('/') &&
        existsSync(join(root, relative)) &&
        !relative.includes('..');
      if (isAsset) {
        const immutable = relative.startsWith('assets/');
        return reply.sendFile(relative, { maxAge: immutable ? '365d' : 0, immutable });
      }
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    },
  );
}
