import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseRange } from './http-range.js';
import type { MediaStore } from './media-store.js';

/**
 * Answers a stored file (or the range the request asks for) once the caller's right to it was
 * checked: `/media/<key>` by its signature, an approval link's files by its token.
 * `cacheControl` says how long the browser may keep it.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  media: Pick<MediaStore, 'stat' | 'open'>,
  key: string,
  cacheControl: string,
) {
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
    .header('cache-control', cacheControl)
    // Files are meant to be shown by the web app, whatever its origin.
    .header('cross-origin-resource-policy', 'cross-origin');
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  }
  return reply.send(stored?.stream);
}
