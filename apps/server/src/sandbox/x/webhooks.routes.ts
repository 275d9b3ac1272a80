import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { sleep } from '../kit/call-knobs.js';
import { basicCredentials, bearerToken } from '../kit/consent.js';
import { heraldReceiver, isHeraldReceiver } from '../kit/herald-receiver.js';
import type { SandboxOAuth } from '../kit/oauth-state.js';
import type { XAccess } from './access.js';
import type { XActivitySubscription, XInboxStore } from './inbox.store.js';
import { xFailures, xOAuthError, xRoute } from './responses.js';
import { snowflake } from './store.js';

/**
 * X's Activity API as the emulator plays it (docs/inbox.md#x-sandbox): an app-only token
 * (`POST /oauth2/token`, client_credentials), the app's webhooks (`GET|POST /2/webhooks`,
 * `PUT|DELETE /2/webhooks/{id}`, a CRC GET on create and on PUT), one subscription per event type
 * per user (`POST|GET /2/activity/subscriptions`), and signed deliveries
 * (`x-twitter-webhooks-signature`, the app's secret) with the account's knobs: `webhook_duplicate`
 * (each event twice), `webhook_out_of_order` (held until `/_emu/webhooks/flush`, then sent newest
 * first), `webhook_bad_signature`, `webhook_disabled`.
 */
export const X_WEBHOOK_KNOBS = [
  'webhook_duplicate',
  'webhook_out_of_order',
  'webhook_bad_signature',
  'webhook_disabled',
] as const;

/** Event types the emulator delivers, and the scope a subscription to each needs. */
const EVENT_SCOPES: Record<string, string[]> = {
  'dm.received': ['dm.read'],
  'dm.sent': ['dm.read'],
  'post.mention.create': ['tweet.read'],
  'post.reply.create': ['tweet.read'],
};

export interface XDeliveryResult {
  status: number | null;
  webhookId: string;
}

export interface XDelivery {
  /**
   * Sends one event to the webhook of the user's subscription to `eventType`, as the knobs say.
   * `delayMs` sends it later (the call returns at once).
   */
  deliver(
    userId: string,
    eventType: string,
    payload: unknown,
    options?: { includes?: unknown; delayMs?: number },
  ): Promise<XDeliveryResult[]>;
  /** Sends the held deliveries of the accounts `owns` accepts, newest first. */
  flush(owns: (userId: string) => boolean): Promise<XDeliveryResult[]>;
}

const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;

export function registerXWebhookRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  deps: { oauth: SandboxOAuth; access: XAccess; inbox: XInboxStore },
): XDelivery {
  const { oauth, inbox } = deps;

  async function appAccess(request: FastifyRequest) {
    const token = bearerToken(request);
    if (!token || !(await inbox.appToken(token))) throw xFailures.unauthorized();
  }

  /**
   * X's CRC: a GET with `crc_token`; the answer must be the HMAC of it under the app's secret.
   * Only Herald's receiver is ever asked (a webhook of another URL is never registered, and
   * `ctx.deliver` reaches nothing else).
   */
  async function crcPasses(url: string) {
    if (!isHeraldReceiver(url, ctx.heraldApi, 'x')) return false;
    const token = randomBytes(18).toString('base64url');
    const expected = sign(ctx.clientSecret, token);
    try {
      const target = new URL(url);
      target.searchParams.set('crc_token', token);
      const res = await ctx.deliver(target, { signal: AbortSignal.timeout(10_000) });
      if (res.status !== 200) return false;
      const body = (await res.json()) as { response_token?: unknown };
      return body.response_token === expected;
    } catch {
      return false;
    }
  }

  scope.post('/oauth2/token', async (request, reply) => {
    const basic = basicCredentials(request);
    if (!basic || basic.id !== ctx.clientId || basic.secret !== ctx.clientSecret)
      return xOAuthError(reply, 403, 'unauthorized_client', 'Unable to verify your credentials');
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'client_credentials')
      return xOAuthError(reply, 400, 'invalid_request', 'grant_type must be client_credentials');
    const token = randomBytes(30).toString('base64url');
    await inbox.saveAppToken(token, await oauth.now());
    return { token_type: 'bearer', access_token: token };
  });

  const webhookJson = (w: { id: string; url: string; valid: boolean; createdAt: number }) => ({
    id: w.id,
    url: w.url,
    valid: w.valid,
    created_at: new Date(w.createdAt).toISOString(),
  });

  scope.get(
    '/2/webhooks',
    xRoute(async (request) => {
      await appAccess(request);
      const hooks = await inbox.webhooks();
      return { data: hooks.map(webhookJson), meta: { result_count: hooks.length } };
    }),
  );

  scope.post(
    '/2/webhooks',
    xRoute(async (request, reply) => {
      await appAccess(request);
      const url = (request.body as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string' || !/^https?:\/\//.test(url))
        throw xFailures.invalid('The `url` field must be an absolute URL.', { url: [String(url)] });
      // X registers whatever URL the app gives; the sandbox app is everyone's, so it registers
      // (and CRC-checks) Herald's own receiver and nothing else.
      if (!isHeraldReceiver(url, ctx.heraldApi, 'x'))
        throw xFailures.invalid(
          `The sandbox app delivers only to Herald's own receiver: register ${heraldReceiver(ctx.heraldApi, 'x')}.`,
          { url: [url] },
        );
      if ((await inbox.webhooks()).length >= 1)
        throw xFailures.forbidden('The app already has its one webhook. Delete it first.');
      if (!(await crcPasses(url)))
        throw xFailures.invalid('CRC validation failed: the URL did not answer the crc_token.', {
          url: [url],
        });
      const hook = {
        id: snowflake(await oauth.now()),
        url,
        valid: true,
        createdAt: await oauth.now(),
      };
      await inbox.saveWebhook(hook);
      return reply.status(200).send({ data: webhookJson(hook) });
    }),
  );

  scope.put(
    '/2/webhooks/:id',
    xRoute(async (request) => {
      await appAccess(request);
      const hook = await inbox.getWebhook((request.params as { id: string }).id);
      if (!hook) throw xFailures.invalid('No such webhook.', {});
      hook.valid = await crcPasses(hook.url);
      await inbox.saveWebhook(hook);
      if (!hook.valid) throw xFailures.invalid('CRC validation failed.', { id: [hook.id] });
      return { data: { valid: true } };
    }),
  );

  scope.delete(
    '/2/webhooks/:id',
    xRoute(async (request) => {
      await appAccess(request);
      await inbox.deleteWebhook((request.params as { id: string }).id);
      return { data: { deleted: true } };
    }),
  );

  scope.post(
    '/2/activity/subscriptions',
    xRoute(async (request, reply) => {
      const body = (request.body ?? {}) as {
        event_type?: unknown;
        filter?: { user_id?: unknown };
        tag?: unknown;
        webhook_id?: unknown;
      };
      const eventType = typeof body.event_type === 'string' ? body.event_type : '';
      const scopes = EVENT_SCOPES[eventType];
      if (!scopes)
        throw xFailures.invalid(`Unknown event_type [${eventType}].`, { event_type: [eventType] });
      const caller = await deps.access(request, scopes);
      const userId = body.filter?.user_id;
      if (userId !== caller.account.id)
        throw xFailures.forbidden('Private events need the token of the user in filter.user_id.');
      if (await inbox.subscription(userId, eventType))
        return reply.status(409).send({
          title: 'Conflict',
          detail: 'A subscription for this event type and user already exists.',
          type: 'https://api.x.com/2/problems/duplicate-subscription',
          status: 409,
        });
      const sub: XActivitySubscription = {
        subscription_id: snowflake(await oauth.now()),
        event_type: eventType,
        filter: { user_id: userId },
        tag: typeof body.tag === 'string' ? body.tag : null,
        webhook_id: typeof body.webhook_id === 'string' ? body.webhook_id : null,
        created_at: new Date(await oauth.now()).toISOString(),
      };
      await inbox.saveSubscription(sub);
      return { data: sub };
    }),
  );

  scope.get(
    '/2/activity/subscriptions',
    xRoute(async (request) => {
      await appAccess(request);
      const subs = await inbox.subscriptions();
      return { data: subs, meta: { result_count: subs.length } };
    }),
  );

  async function post(url: string, body: string, signature: string): Promise<number | null> {
    try {
      const res = await ctx.deliver(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': signature },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return null;
    }
  }

  return {
    async deliver(userId, eventType, payload, options = {}) {
      const sub = await inbox.subscription(userId, eventType);
      if (!sub) return [];
      const hooks = await inbox.webhooks();
      const hook = sub.webhook_id ? hooks.find((h) => h.id === sub.webhook_id) : hooks[0];
      if (!hook || !hook.valid) return [];
      const scenario = await oauth.scenarios.read([userId]);
      if (scenario.isOn('webhook_disabled')) return [];
      // Non-ASCII text stays as UTF-8 bytes; the signature covers exactly these bytes.
      const body = JSON.stringify({
        data: {
          event_uuid: snowflake(await oauth.now()),
          filter: { user_id: userId },
          event_type: eventType,
          tag: sub.tag,
          payload,
          ...(options.includes ? { includes: options.includes } : {}),
        },
      });
      const signature = scenario.isOn('webhook_bad_signature')
        ? sign(`${ctx.clientSecret}-wrong`, body)
        : sign(ctx.clientSecret, body);
      if (scenario.isOn('webhook_out_of_order')) {
        await inbox.hold({ id: snowflake(Date.now()), userId, url: hook.url, body, signature });
        return [{ status: null, webhookId: hook.id }];
      }
      const times = scenario.isOn('webhook_duplicate') ? 2 : 1;
      const send = async () => {
        const results: XDeliveryResult[] = [];
        for (let i = 0; i < times; i++)
          results.push({ status: await post(hook.url, body, signature), webhookId: hook.id });
        return results;
      };
      if (options.delayMs && options.delayMs > 0) {
        void sleep(options.delayMs).then(send);
        return [{ status: null, webhookId: hook.id }];
      }
      return send();
    },

    async flush(owns) {
      const held = (await inbox.held())
        .filter((d) => d.userId !== undefined && owns(d.userId))
        .sort((a, b) => (a.id < b.id ? 1 : -1));
      const results: XDeliveryResult[] = [];
      for (const d of held) {
        await inbox.release(d.id);
        results.push({ status: await post(d.url, d.body, d.signature), webhookId: '' });
      }
      return results;
    },
  };
}
