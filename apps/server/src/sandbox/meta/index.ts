import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { credentialsOf } from '../kit/admin.js';
import { registerEmuKit } from '../kit/emu-kit.js';
import { addGraphComments } from './comments.js';
import { registerEmuPublishRoutes } from './emu-posts.js';
import { GraphFailure, graphErrors } from './errors.js';
import { parseFields, pickFields } from './fields.js';
import type { ObjectView, PublishDeps } from './helpers.js';
import { addInstagramPublishing } from './ig-publish.js';
import { addGraphInsights } from './insights.js';
import { addGraphNodeRoutes } from './nodes.js';
import { registerEmuInboxRoutes } from './emu-inbox.routes.js';
import { addGraphMessaging } from './messaging.js';
import { addGraphOAuthRoutes, type GraphOAuthOptions } from './oauth.js';
import { createGraphObjects, ownersOf, type GraphObject } from './objects.js';
import { addPagePublishing } from './page-publish.js';
import {
  GraphRouter,
  servedGraphVersion,
  splitGraphPath,
  type GraphMethod,
  type ReceivedBytes,
} from './router.js';
import { createGraphState } from './state.js';
import { addResumableUploads, receiveUploadBytes } from './uploads.js';
import {
  createWebhookSender,
  META_WEBHOOK_KNOBS,
  META_WEBHOOK_NUMERIC_KNOBS,
} from './webhook-sender.js';

/**
 * Switches of docs/networks.md#scenario-knobs the Graph emulator honours, per sandbox account name (or user, Page or
 * Instagram id): `POST /_emu/scenario {account, knob, on}`.
 * - token_revoked / token_expired: every call answers 190 (460 / 463).
 * - refresh_fails: `fb_exchange_token` answers 190/463.
 * - duplicate_reject: a Page post repeating the last one's text answers 506.
 */
export const META_KNOBS = [
  'token_revoked',
  'token_expired',
  'refresh_fails',
  'duplicate_reject',
  // Webhook delivery (webhook-sender.ts): duplicates, disorder, forged signature, disabled.
  ...META_WEBHOOK_KNOBS,
] as const;

/**
 * Numeric knobs, named as in sandbox/kit/call-knobs.ts: `POST /_emu/scenario {account, knob,
 * value}` (`on: false` or `value: 0` clears; `on: true` alone means 1 for counts, 0 ms).
 * - latency_ms: every call of the account waits this long before answering.
 * - fail_next: the next N calls answer code 2 (HTTP 500, is_transient).
 * - rate_limit_next: the next N calls answer a throttle, code `rate_limit_code` (4, 17, 32,
 *   613; default 4).
 * - finalize_timeout: the next visible call (`media_publish`, `/feed`, published `/photos`,
 *   `/videos`) creates the post, waits `value` ms, then closes the connection unanswered.
 * - processing_fails: the next N Instagram containers end in ERROR.
 * - processing_ms: how long new Instagram containers stay IN_PROGRESS (default: images 0,
 *   videos 1000).
 * - publish_cap: Instagram's 24 h publishing cap (default 50).
 * - carousel_create_fails: the next N Instagram CAROUSEL containers answer code -1 / 2207032
 *   ("Create media fail, please try to re-create media", is_transient).
 * - buc_throttle_minutes: the next call answers a Business Use Case throttle (80001 Pages, 80002
 *   Instagram) whose `X-Business-Use-Case-Usage` header says to wait `value` minutes.
 * - policy_block_next: the next N calls answer code 368 (a policy block).
 * - upload_interrupt_bytes: the next `POST /upload:{session}` keeps this many of the bytes it
 *   carries, then closes the connection unanswered (an upload cut off mid-way).
 */
export const META_NUMERIC_KNOBS = [
  'latency_ms',
  'fail_next',
  'rate_limit_next',
  'rate_limit_code',
  'finalize_timeout',
  'processing_fails',
  'processing_ms',
  'publish_cap',
  'carousel_create_fails',
  'buc_throttle_minutes',
  'policy_block_next',
  'upload_interrupt_bytes',
  ...META_WEBHOOK_NUMERIC_KNOBS,
] as const;

const isReceivedBytes = (value: unknown): value is ReceivedBytes =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as ReceivedBytes).head);

const asParams = (value: unknown): Record<string, string> => {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [
        k,
        Array.isArray(v) ? String(v[0]) : typeof v === 'object' ? JSON.stringify(v) : String(v),
      ]),
  );
};

/**
 * One Meta Graph emulator (docs/networks.md#meta-sandbox) with Graph's paths, answers and error envelope: sign-in,
 * account nodes, Instagram containers and publishing, Page posts, and comment threads.
 * Facebook and Instagram each mount their own copy with their own store.
 */
export function registerGraphEmulator(
  scope: FastifyInstance,
  ctx: SandboxContext,
  options: GraphOAuthOptions,
) {
  const kit = registerEmuKit(scope, ctx, META_KNOBS, META_NUMERIC_KNOBS, (ref) =>
    state.accountsOf(ref),
  );
  const state = createGraphState(ctx, kit);
  const router = new GraphRouter();
  const objects = createGraphObjects(ctx.store);
  const deps: PublishDeps = {
    ctx,
    kit,
    state,
    objects,
    views: new Map<GraphObject['type'], ObjectView>(),
  };
  addGraphOAuthRoutes(scope, router, { ctx, kit, state, options });
  addGraphNodeRoutes(router, {
    ctx,
    kit,
    state,
    async readObject(req, id, auth) {
      const object = await objects.get(id);
      const view = object && deps.views.get(object.type);
      if (!object || !view || !ownersOf(auth).has(object.owner)) return null;
      const specs = parseFields(req.params.fields, view.defaults);
      return { json: pickFields(await view.view(object, specs), specs, view.nodeType) };
    },
  });
  addInstagramPublishing(router, deps);
  addResumableUploads(router, deps);
  addPagePublishing(router, deps);
  const comments = addGraphComments(router, deps);
  addGraphInsights(router, deps);
  const webhooks = createWebhookSender(ctx, kit);
  const messaging = addGraphMessaging(router, {
    ...deps,
    platform: options.network === 'Instagram' ? 'instagram' : 'messenger',
    webhooks,
  });
  registerEmuPublishRoutes(scope, {
    objects,
    comments,
    onVisitorComment: (comment) => messaging.commentAdded(comment),
  });
  registerEmuInboxRoutes(scope, {
    ctx,
    network: options.network,
    messaging,
    webhooks,
    objects,
    state,
    addVisitorComment: (input) => comments.addVisitorComment(input),
  });

  // The Resumable Upload API's bytes (`POST /upload:{session}`), counted as they stream past.
  scope.addContentTypeParser('application/octet-stream', receiveUploadBytes);

  scope.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/*',
    // Graph takes tokens and the app secret in query strings: keep request URLs out of the log.
    logLevel: 'warn',
    handler: async (request, reply) => {
      const rest = (request.params as Record<string, string>)['*'] ?? '';
      const { version, segments } = splitGraphPath(rest);
      const query = asParams(request.query);
      const upload = isReceivedBytes(request.body) ? request.body : null;
      const body = upload ? {} : asParams(request.body);
      const params = { ...query, ...body };
      const header = /^(?:OAuth|Bearer)\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      const method = request.method as GraphMethod;
      const owners = await Promise.all(credentialsOf(request).map(state.accountsOfCredential));
      await kit.recordCall({
        method,
        path: `/${rest}`,
        query,
        body: upload ? { bytes: String(upload.bytes) } : request.body ? body : null,
        accounts: [...new Set(owners.flat())],
      });
      const match = router.match(method, segments);
      // Every Graph answer names the version that served it; one Graph does not have makes the
      // whole path unknown (docs/networks.md#api-versions).
      const served =
        version === null ? undefined : servedGraphVersion(version, new Date(await kit.now()));
      if (served) reply.header('facebook-api-version', served);
      try {
        if (!match || served === null) throw graphErrors.unknownPath(segments.join('/'));
        const answer = await match.handler(
          {
            method,
            version,
            params,
            token: header?.[1] ?? params.access_token,
            tokenInHeader: Boolean(header),
            headers: request.headers as Record<string, string | undefined>,
            upload,
          },
          match.params,
        );
        if ('drop' in answer) {
          // The post exists, but the caller never hears so (docs/networks.md#scenario-knobs finalize_timeout).
          // Both ends: a socket closes for real clients, and an injected request rejects.
          reply.hijack();
          reply.raw.destroy();
          request.raw.destroy();
          return;
        }
        if ('redirect' in answer) return reply.redirect(answer.redirect, 302);
        if ('html' in answer) {
          return reply
            .status(answer.status ?? 200)
            .type('text/html; charset=utf-8')
            .send(answer.html);
        }
        return reply.status(answer.status ?? 200).send(answer.json);
      } catch (err) {
        if (err instanceof GraphFailure) {
          return reply.status(err.status).headers(err.headers).send(err.body());
        }
        throw err;
      }
    },
  });
}
