import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

const COMPRESSIBLE = /json|^text\/|javascript|xml|svg/;

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none.
 * Weights are honored (`br;q=0` refuses brotli) and `*` stands for any encoding not named.
 */
export function pickEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const accepts = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/**
 * Compresses the API's text answers (JSON lists and details grow to tens of kilobytes) with
 * brotli or gzip, whichever the client accepts. Streams (files, event streams, which hijack the
 * reply anyway) pass untouched, and small answers are not worth it. Brotli runs at quality 4:
 * close to gzip's speed with a smaller result; the best quality is for the web app's files,
 * compressed once at build time.
 *
 * Registered after every other onSend hook, so those (the idempotency record) see plain JSON.
 */
export function registerCompression(app: FastifyInstance, threshold = COMPRESSION_THRESHOLD) {
  // A callback, not a promise, for the answers that pass as they are (most of them).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
      reply.hasHeader('content-encoding') ||
      !COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? '')) ||
      Buffer.byteLength(payload) < threshold
    ) {
      done(null, payload);
      return;
    }
    reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary')));
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding) {
      done(null, payload);
      return;
    }
    const compressed =
      encoding === 'br'
        ? brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
        : gzipAsync(payload, { level: 6 });
    compressed.then(
      (body) => {
        reply.header('content-encoding', encoding);
        reply.header('content-length', body.length);
        done(null, body);
      },
      (err: Error) => done(err),
    );
  });
}

function varyWithAcceptEncoding(current: unknown): string {
  const value = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(value)) return value;
  return value ? `${value}, Accept-Encoding` : 'Accept-Encoding';
}
