import type { FastifyInstance } from 'fastify';
import { checkFeed, type FeedsDeps } from './feed-check.js';
import { NotAFeed, parseFeed } from './feed-parser.js';
import { authenticPush, verifyIntent, WEBSUB_MAX_BYTES } from './websub.js';
import * as repo from './feeds.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * WebSub's callback (docs/feeds.md#websub-push), public: the hub proves who it is by echoing
 * the subscription's topic (GET, verification of intent) and by signing each push with the
 * subscription's secret (POST, `X-Hub-Signature`). Its own scope, so the body stays raw bytes
 * for the signature.
 */
export async function websubCallbackRoutes(app: FastifyInstance, { deps }: { deps: FeedsDeps }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBSUB_MAX_BYTES },
    (_r, body, done) => done(null, body),
  );

  app.get(
    '/websub/feeds/:feedId',
    { config: { access: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const { feedId } = request.params as { feedId: string };
      const challenge = UUID.test(feedId)
        ? await verifyIntent(deps, feedId, request.query as Record<string, string | undefined>)
        : null;
      if (challenge === null)
        return reply.code(404).type('text/plain').send('Unknown subscription.');
      return reply.code(200).type('text/plain; charset=utf-8').send(challenge);
    },
  );

  app.post(
    '/websub/feeds/:feedId',
    { config: { access: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const { feedId } = request.params as { feedId: string };
      if (!UUID.test(feedId) || !(await repo.findFeedById(deps.db, feedId)))
        // Gone: the hub stops pushing to a feed Herald no longer has.
        return reply.code(410).type('text/plain').send('No such subscription.');
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['x-hub-signature'];
      const feed = await authenticPush(
        deps,
        feedId,
        body,
        Array.isArray(signature) ? signature[0] : signature,
      );
      // WebSub: an unsigned or wrongly signed push is acknowledged and ignored.
      if (!feed) {
        request.log.warn({ feedId }, 'websub push without a valid signature ignored');
        return reply.code(202).send();
      }
      const contentType = request.headers['content-type'] ?? '';
      let parsed;
      try {
        parsed = parseFeed(body.toString('utf8'), contentType);
      } catch (error) {
        if (!(error instanceof NotAFeed)) throw error;
        request.log.warn({ feedId, reason: error.message }, 'websub push is not a feed');
        return reply.code(202).send();
      }
      await checkFeed(deps, feed, {
        fetched: {
          kind: 'body',
          finalUrl: feed.websubTopic ?? feed.url,
          body: '',
          contentType,
          // A push says nothing of the feed's own validators: the stored ones stay.
          validators: { etag: feed.etag, lastModified: feed.lastModified, url: feed.validatorsUrl },
          maxAgeMs: null,
        },
        parsed,
      });
      return reply.code(204).send();
    },
  );
}
