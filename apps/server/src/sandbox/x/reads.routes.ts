import type { FastifyInstance } from 'fastify';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import type { XAccess } from './access.js';
import { fieldList, includedUsers, pageOf, pageStart, renderTweet } from './render.js';
import { X_PUBLISHING, xFailures, xRoute } from './responses.js';
import type { XPublishingStore, XTweet } from './store.js';

/**
 * Reading posts back (docs/networks.md#x-comments, #x-idempotency, #x-sandbox): one tweet, a user's recent tweets
 * (what reconciliation reads) and recent search by `conversation_id:` (the replies to a post).
 */
export interface XReadDeps {
  oauth: SandboxOAuth;
  access: XAccess;
  posts: XPublishingStore;
}

type Query = Record<string, string | undefined>;
const READ_SCOPES = ['tweet.read', 'users.read'];

/** `max_results` within X's bounds for the endpoint, or its invalid-request answer. */
function maxResults(q: Query, min: number, fallback: number) {
  if (q.max_results === undefined) return fallback;
  const n = Number(q.max_results);
  if (!Number.isInteger(n) || n < min || n > 100)
    throw xFailures.invalid(
      `The \`max_results\` query parameter value [${q.max_results}] is not between ${min} and 100`,
      { max_results: [q.max_results] },
    );
  return n;
}

function checkToken(token: string | undefined) {
  if (token !== undefined && pageStart(token) === undefined)
    throw xFailures.invalid('The `pagination_token` query parameter value is not valid.', {
      pagination_token: [token],
    });
  return token;
}

/** An answer with `data` only when there is some, and `includes.users` when expanded. */
function listAnswer(page: XTweet[], meta: Record<string, unknown>, q: Query) {
  const fields = fieldList(q['tweet.fields']);
  const expand = fieldList(q.expansions).has('author_id');
  return {
    ...(page.length ? { data: page.map((t) => renderTweet(t, fields)) } : {}),
    ...(page.length && expand
      ? { includes: { users: includedUsers(page, fieldList(q['user.fields'])) } }
      : {}),
    meta,
  };
}

export function registerXReadRoutes(scope: FastifyInstance, deps: XReadDeps) {
  const { oauth, posts } = deps;

  scope.get(
    '/2/tweets/:id',
    xRoute(async (request) => {
      const caller = await deps.access(request, READ_SCOPES);
      const id = (request.params as { id: string }).id;
      const q = request.query as Query;
      const tweet = await posts.getTweet(id);
      // X answers 200 with errors[] for a post that is gone.
      if (!tweet || tweet.deletedAt !== null)
        return {
          errors: [
            {
              value: id,
              detail: `Could not find tweet with id: [${id}].`,
              title: 'Not Found Error',
              resource_type: 'tweet',
              parameter: 'id',
              resource_id: id,
              type: 'https://api.x.com/2/problems/resource-not-found',
            },
          ],
        };
      return {
        data: renderTweet(tweet, fieldList(q['tweet.fields']), {
          now: await oauth.now(),
          viewer: caller.account.id,
        }),
        ...(fieldList(q.expansions).has('author_id')
          ? { includes: { users: includedUsers([tweet], fieldList(q['user.fields'])) } }
          : {}),
      };
    }),
  );

  /**
   * `GET /2/tweets?ids=a,b,…` (1 to 100 ids): the posts found in `data`, in the order asked, and
   * one `errors[]` entry per id that is gone — X's batch lookup, what analytics reads.
   */
  scope.get(
    '/2/tweets',
    xRoute(async (request) => {
      const caller = await deps.access(request, READ_SCOPES);
      const q = request.query as Query;
      const ids = String(q.ids ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      if (!ids.length || ids.length > 100 || ids.some((id) => !/^\d{1,19}$/.test(id)))
        throw xFailures.invalid(
          'The `ids` query parameter value must be 1 to 100 comma-separated post ids.',
          { ids: [String(q.ids ?? '')] },
        );
      const now = await oauth.now();
      const fields = fieldList(q['tweet.fields']);
      const data: Array<Record<string, unknown>> = [];
      const errors: Array<Record<string, unknown>> = [];
      for (const id of ids) {
        const tweet = await posts.getTweet(id);
        if (!tweet || tweet.deletedAt !== null) {
          errors.push({
            value: id,
            detail: `Could not find tweet with id: [${id}].`,
            title: 'Not Found Error',
            resource_type: 'tweet',
            parameter: 'ids',
            resource_id: id,
            type: 'https://api.x.com/2/problems/resource-not-found',
          });
          continue;
        }
        data.push(renderTweet(tweet, fields, { now, viewer: caller.account.id }));
      }
      return { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) };
    }),
  );

  scope.get(
    '/2/users/:id/tweets',
    xRoute(async (request) => {
      await deps.access(request, READ_SCOPES);
      const q = request.query as Query;
      const max = maxResults(q, 5, 10);
      const token = checkToken(q.pagination_token);
      const exclude = fieldList(q.exclude);
      let tweets = await posts.timeline((request.params as { id: string }).id);
      if (exclude.has('replies')) tweets = tweets.filter((t) => t.inReplyToTweetId === null);
      if (q.since_id) {
        const since = q.since_id;
        tweets = tweets.filter(
          (t) => t.id.length > since.length || (t.id.length === since.length && t.id > since),
        );
      }
      const { page, meta } = pageOf(tweets, max, token);
      return listAnswer(page, meta, q);
    }),
  );

  scope.get(
    '/2/tweets/search/recent',
    xRoute(async (request) => {
      await deps.access(request, READ_SCOPES);
      const q = request.query as Query;
      const conversation = /(?:^|\s)conversation_id:(\d+)(?:\s|$)/.exec(q.query ?? '')?.[1];
      if (!conversation)
        throw xFailures.invalid(
          'The sandbox search understands `conversation_id:<id>` queries only.',
          { query: [q.query ?? ''] },
        );
      const max = maxResults(q, 10, 10);
      const token = checkToken(q.next_token ?? q.pagination_token);
      const since = (await oauth.now()) - X_PUBLISHING.searchWindowMs;
      const tweets = (await posts.conversation(conversation)).filter((t) => t.createdAt >= since);
      const { page, meta } = pageOf(tweets, max, token);
      return listAnswer(page, meta, q);
    }),
  );
}
