import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { parseRange } from './http-range.js';
import type { MediaStore } from './media-store.js';

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

      const { size, contentType } = await media.stat(key);
      const range = parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') {
        // Part of the Range protocol rather than an error of the caller's making.
        return reply
          .code(416)
          .header('content-range', `bytes */${size}`)
          .send({
            status: 'error',
            code: 'BAD_REQUEST',
            message: `The requested range starts past the end of this ${size}-byte file.`,
          });
      }
      // HEAD: the headers say it all; a (possibly huge) file is not read to be thrown away.
      // Opened before any header is set, so a failure still gets a clean error answer.
      const stored = request.method === 'HEAD' ? null : await media.open(key, range ?? undefined);
      const length = range ? range.end - range.start + 1 : size;
      reply
        .header('content-type', contentType)
        .header('content-length', length)
        .header('accept-ranges', 'bytes')
        .header('cache-control', `private, max-age=${media.secondsUntil(check.expiresAt)}`)
        // Signed links are meant to be embedded by the web app, whatever its origin.
        .header('cross-origin-resource-policy', 'cross-origin');
      if (range) {
        reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      }
      return reply.send(stored?.stream);
    },
  });
}
