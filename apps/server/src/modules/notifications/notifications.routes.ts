import {
  NotificationWebhookRequestSchema,
  NotificationWebhookResponseSchema,
  NotificationWebhookTestResponseSchema,
  NotificationPreferencesRequestSchema,
  NotificationPreferencesResponseSchema,
  NotificationListSchema,
  OrgParamsSchema,
  NotificationPageSchema,
  NotificationParamsSchema,
  NotificationResponseSchema,
  NotificationsQuerySchema,
  ReadAllRequestSchema,
  ReadAllResponseSchema,
} from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import type { Mailer } from '../../lib/mailer.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import * as webhooks from './webhooks.js';
import { loadMembership } from '../team/membership.js';
import { type LiveStream, LiveStreams, type StreamAccess, TooManyStreams } from './live-streams.js';
import type { NotificationBus } from './notification-bus.js';
import { conversationAccountOf, findForUser } from './notifications.repository.js';
import * as service from './notifications.service.js';
import { hijackWithHeaders } from '../../lib/hijack.js';
import { markLiveStream } from '../../http/drain.js';

const tags = ['notifications'];
const HEARTBEAT_MS = 25_000;

export async function notificationsRoutes(
  app: FastifyInstance,
  {
    db,
    bus,
    now,
    mailer,
    cipher,
    allowPrivate,
  }: {
    db: Db;
    bus: NotificationBus;
    now: () => Date;
    mailer: Mailer | null;
    cipher: TokenCipher;
    allowPrivate: readonly string[];
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const hookDeps = { db, cipher, allowPrivate, log: app.log, now };
  const webhookPath = '/organizations/:orgId/notification-webhook';

  api.get(
    webhookPath,
    {
      config: { access: { org: 'GET /organizations/:orgId/notification-webhook' } },
      schema: {
        tags,
        summary: "The organization's incoming webhook (only a hint of its URL)",
        params: OrgParamsSchema,
        response: { 200: NotificationWebhookResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: { webhook: await webhooks.readWebhook(db, request.params.orgId) },
    }),
  );

  api.put(
    webhookPath,
    {
      config: { access: { org: 'PUT /organizations/:orgId/notification-webhook' } },
      schema: {
        tags,
        summary: 'Set the incoming webhook that gets publishing failures and approvals',
        params: OrgParamsSchema,
        body: NotificationWebhookRequestSchema,
        response: { 200: NotificationWebhookResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        webhook: await webhooks.saveWebhook(hookDeps, request.params.orgId, request.body.url),
      },
    }),
  );

  api.delete(
    webhookPath,
    {
      config: { access: { org: 'DELETE /organizations/:orgId/notification-webhook' } },
      schema: {
        tags,
        summary: 'Stop posting to the incoming webhook',
        params: OrgParamsSchema,
        response: { 200: NotificationWebhookResponseSchema },
      },
    },
    async (request) => {
      await webhooks.deleteWebhook(db, request.params.orgId);
      return {
        status: 'success' as const,
        data: { webhook: { configured: false, urlHint: null } },
      };
    },
  );

  api.post(
    `${webhookPath}/test`,
    {
      config: { access: { org: 'POST /organizations/:orgId/notification-webhook/test' } },
      schema: {
        tags,
        summary: 'Post a sample message to the incoming webhook and say whether it took it',
        params: OrgParamsSchema,
        response: { 200: NotificationWebhookTestResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await webhooks.testWebhook(hookDeps, request.params.orgId),
    }),
  );

  api.get(
    '/organizations/:orgId/notification-preferences',
    {
      config: { access: { org: 'GET /organizations/:orgId/notification-preferences' } },
      schema: {
        tags,
        summary: 'Which notifications the caller gets here, in the app, by email and in the digest',
        params: OrgParamsSchema,
        response: { 200: NotificationPreferencesResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        preferences: await service.readPreferences(
          db,
          request.params.orgId,
          requireUser(request).user.id,
        ),
        emailAvailable: mailer !== null,
      },
    }),
  );

  api.put(
    '/organizations/:orgId/notification-preferences',
    {
      config: { access: { org: 'PUT /organizations/:orgId/notification-preferences' } },
      schema: {
        tags,
        summary: "Change the caller's own notification choices (the kinds sent; others are kept)",
        params: OrgParamsSchema,
        body: NotificationPreferencesRequestSchema,
        response: { 200: NotificationPreferencesResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        preferences: await service.savePreferences(
          db,
          request.params.orgId,
          requireUser(request).user.id,
          request.body.preferences,
        ),
        emailAvailable: mailer !== null,
      },
    }),
  );

  /** A caller may read an organization's notifications only while a member of it. */
  async function requireMembership(userId: string, organizationId: string) {
    const membership = await loadMembership(db, organizationId, userId);
    if (!membership) {
      throw new AppError('FORBIDDEN', 'You are not a member of this organization.');
    }
    return membership;
  }

  api.get(
    '/notifications',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        querystring: NotificationsQuerySchema,
        response: { 200: z.union([NotificationPageSchema, NotificationListSchema]) },
      },
    },
    async (request) => {
      const { user } = requireUser(request);
      const { organizationId, limit, cursor } = request.query;
      await requireMembership(user.id, organizationId);
      const paged = limit !== undefined || cursor !== undefined;
      const page = await service.listNotifications(
        db,
        user.id,
        organizationId,
        paged ? { limit, cursor } : undefined,
      );
      if (!paged) return page.notifications;
      return {
        status: 'success' as const,
        data: { notifications: page.notifications },
        meta: { nextCursor: page.nextCursor, unreadCount: page.unreadCount },
      };
    },
  );

  api.patch(
    '/notifications/read-all',
    {
      config: { access: 'authenticated' },
      schema: { tags, body: ReadAllRequestSchema, response: { 200: ReadAllResponseSchema } },
    },
    async (request) => {
      const { user } = requireUser(request);
      await requireMembership(user.id, request.body.organizationId);
      return {
        status: 'success' as const,
        data: { updated: await service.markAllRead(db, user.id, request.body.organizationId) },
      };
    },
  );

  for (const [action, read] of [
    ['read', true],
    ['unread', false],
  ] as const) {
    api.patch(
      `/notifications/:id/${action}`,
      {
        config: { access: 'authenticated' },
        schema: {
          tags,
          params: NotificationParamsSchema,
          response: { 200: NotificationResponseSchema },
        },
      },
      async (request) => ({
        status: 'success' as const,
        data: {
          notification: await service.setRead(
            db,
            requireUser(request).user.id,
            request.params.id,
            read,
          ),
        },
      }),
    );
  }

  // Server-Sent Events: each new notification of the caller for this organization, as it is
  // recorded, and the organization's inbox events; each stream lives only while its session and
  // the caller's membership do (live-streams.ts).
  const streams = new LiveStreams(db, now, app.log);
  const stopAccess = bus.subscribeAccess((change) => streams.onAccessChange(change));
  streams.start();
  app.addHook('onClose', async () => {
    stopAccess();
    streams.stop();
  });

  api.get(
    '/notifications/stream',
    {
      config: { access: 'authenticated' },
      schema: { tags, querystring: NotificationsQuerySchema.pick({ organizationId: true }) },
    },
    async (request, reply) => {
      const { user, sessionId } = requireUser(request);
      const { organizationId } = request.query;
      let stream: LiveStream;
      try {
        stream = streams.open({ sessionId, userId: user.id, organizationId });
      } catch (err) {
        if (err instanceof TooManyStreams)
          reply.header('retry-after', String(err.retryAfterSeconds));
        throw err;
      }
      // Read once registered: a change announced from here on reaches this stream too.
      await stream.verify();
      const res = hijackWithHeaders(reply);
      markLiveStream(res);
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 5000\n\n');
      // Each event is sent after a fresh look at the session and membership (a burst shares
      // one), in arrival order: what arrives after access was lost is never written, even
      // before the announcement of the change has closed the stream.
      let queue = Promise.resolve();
      const send = (allowed: (access: StreamAccess) => boolean, frame: () => Promise<string>) => {
        const access = stream.check();
        queue = queue.then(async () => {
          if (!allowed(await access) || res.writableEnded) return;
          const text = await frame();
          if (text && stream.access.open && !res.writableEnded) res.write(text);
        });
        queue = queue.catch((err: unknown) => request.log.warn({ err }, 'live event not sent'));
      };
      const unsubscribe = bus.subscribe(user.id, (id) =>
        send(
          (access) => access.open,
          async () => {
            const [row] = await findForUser(db, user.id, [id]);
            if (
              !row ||
              (row.organizationId !== organizationId && row.type !== 'ORGANIZATION_INVITE')
            )
              return '';
            return `event: notification\ndata: ${JSON.stringify(service.toNotificationDto(row))}\n\n`;
          },
        ),
      );
      // The inbox's live events, for members who may see the inbox (one who gains dm:view starts
      // receiving them); a teammate's own typing is not echoed back to them. The events carry ids
      // only; the screen reads through the API, which checks access again.
      const stopInbox = bus.subscribeOrganization(organizationId, (announcement) => {
        if (announcement.event === 'inbox-typing' && announcement.data.user.id === user.id) return;
        send(
          (access) => access.inbox,
          async () => {
            // A member limited to some accounts hears of their conversations only.
            const limit = stream.access.accountIds;
            if (limit !== null) {
              const { conversationId } = announcement.data;
              const account = await conversationAccountOf(db, organizationId, conversationId);
              if (!account || !limit.includes(account)) return '';
            }
            return `event: ${announcement.event}\ndata: ${JSON.stringify(announcement.data)}\n\n`;
          },
        );
      });
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(heartbeat);
        unsubscribe();
        stopInbox();
        stream.end();
        if (!res.writableEnded) res.end();
      };
      // Ended here when access is lost; by the client or the connection otherwise.
      stream.attach(stop);
      res.on('close', stop);
      // A client that left while its access was read closed the socket before anyone listened:
      // without this its place under the cap, its listeners and its heartbeat would stay.
      if (res.destroyed || request.raw.destroyed) stop();
    },
  );
}
