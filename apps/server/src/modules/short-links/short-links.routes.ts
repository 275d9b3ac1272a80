import { SHORT_LINK_CODE_PATTERN } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { followShortLink } from './short-links.service.js';

/** The page of a code that leads nowhere: a person followed it, so a page rather than JSON. */
const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link not found · Herald</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#1f2937}h1{font-size:1.5rem}p{line-height:1.5;color:#4b5563}</style>
</head><body><h1>This link does not exist</h1>
<p>The short link you followed is not known here: it may have been mistyped or cut short, or the post it belonged to was deleted. Ask whoever shared it for the full address.</p>
</body></html>`;

/**
 * `/l/<code>` on Herald's own host, outside the API's prefix (docs/analytics.md#short-links): a
 * 302 to the link with its UTM parameters, counting the visit. No session, no cookie: the code is
 * the only thing read, and only a count is kept.
 */
/**
 * The address as a Location header can carry it: a link written with a non-Latin host or path
 * (`https://例え.jp/パス`) is sent punycoded and percent-encoded, as browsers send it.
 */
function asciiLocation(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return encodeURI(url);
  }
}

export async function shortLinkRoutes(
  app: FastifyInstance,
  { db, now }: { db: Db; now: () => Date },
) {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/l/:code',
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      const { code } = request.params as { code: string };
      const url = SHORT_LINK_CODE_PATTERN.test(code)
        ? await followShortLink(
            db,
            // A HEAD is a link checker's look, not a visit.
            { code, userAgent: request.headers['user-agent'], counts: request.method === 'GET' },
            now(),
          )
        : null;
      // Counts must reach the database on every visit: no cache may answer in Herald's place.
      reply.header('cache-control', 'no-store');
      if (!url) return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
      return reply.redirect(asciiLocation(url), 302);
    },
  });
}
