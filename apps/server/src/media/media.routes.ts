import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';
import type { MediaStore } from './media-store.js';
import { sendStoredFile } from './serve-file.js';

/**
 * Serves stored media by signed URL — `/media/<key>?exp=…&sig=…` — to browsers and to the
 * networks that fetch a post's files. No session: the signature is the permission.
 */
export async function mediaRoutes(
  app: FastifyInstance,
  opts: { media: MediaStore },
): Promise<void> {
  const { media } = opts;

  // HEAD declared here, not derived from GET: Fastify's derived HEAD would read the whole file.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    config: { access: 'public' },
    handler: async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const query = request.query as Record<string, unknown>;
      const check = media.checkUrl(key, query.exp, query.sig);
      if (check.status === 'invalid')
        throw new AppError(
          'FORBIDDEN',
          'This media link is not valid. Open the post again in Herald to get a fresh link.',
        );
      if (check.status === 'expired')
        throw new AppError(
          'FORBIDDEN',
          'This media link has expired. Open the post again in Herald to get a fresh link.',
        );

      return sendStoredFile(
        request,
        reply,
        media,
        key,
        `private, max-age=${media.secondsUntil(check.expiresAt)}`,
      );
    },
  });
}
