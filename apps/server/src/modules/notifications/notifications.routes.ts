import {
  NotificationListSchema,
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
import { loadMembership } from '../team/membership.js';
import type { NotificationBus } from './notification-bus.js';
import { findForUser } from './notifications.repository.js';
import * as service from './notifications.service.js';
import { hijackWithHeaders } from '../../lib/hijack.js';

const tags = ['notifications'];
const HEARTBEAT_MS = 25_000;

export async function notificationsRoutes(
  app: FastifyInstance,
  { db, bus }: { db: Db; bus: NotificationBus },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

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

  // Server-Sent Events: each new notification of the caller for this organization, as it is recorded.
  /**
   * Whether the member may see the inbox now, read afresh for each live event; events arriving
   * while one look is under way share it, so a burst costs one query.
   */
  function inboxAccess(userId: string, organizationId: string, opened: { permissions: string[] }) {
    let pending: Promise<boolean> | null = null;
    let last = opened.permissions.includes('dm:view');
    return (): Promise<boolean> => {
      pending ??= loadMembership(db, organizationId, userId)
        .then((m) => (last = Boolean(m?.permissions.includes('dm:view'))))
        .catch(() => last)
        .finally(() => {
          pending = null;
        });
      return pending;
    };
  }

  api.get(
    '/notifications/stream',
    {
      config: { access: 'authenticated' },
      schema: { tags, querystring: NotificationsQuerySchema.pick({ organizationId: true }) },
    },
    async (request, reply) => {
      const { user } = requireUser(request);
      const { organizationId } = request.query;
      const membership = await requireMembership(user.id, organizationId);
      const res = hijackWithHeaders(reply);
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 5000\n\n');
      const unsubscribe = bus.subscribe(user.id, (id) => {
        void findForUser(db, user.id, [id]).then(([row]) => {
          if (!row || (row.organizationId !== organizationId && row.type !== 'ORGANIZATION_INVITE'))
            return;
          res.write(
            `event: notification\ndata: ${JSON.stringify(service.toNotificationDto(row))}\n\n`,
          );
        });
      });
      // The inbox's live events, for members who may see the inbox; a teammate's own typing is
      // not echoed back to them. The events carry ids only; the screen reads through the API,
      // which checks access again.
      const mayViewInbox = inboxAccess(user.id, organizationId, membership);
      let inboxQueue = Promise.resolve();
      const stopInbox = bus.subscribeOrganization(organizationId, (announcement) => {
        if (announcement.event === 'inbox-typing' && announcement.data.user.id === user.id) return;
        // In arrival order, each after a fresh look at the member's role: one whose role lost
        // dm:view (or who left) stops receiving them at once, one who gained it starts.
        const allowed = mayViewInbox();
        inboxQueue = inboxQueue.then(async () => {
          if (!(await allowed) || res.writableEnded) return;
          res.write(`event: ${announcement.event}\ndata: ${JSON.stringify(announcement.data)}\n\n`);
        });
      });
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        stopInbox();
      });
    },
  );
}
