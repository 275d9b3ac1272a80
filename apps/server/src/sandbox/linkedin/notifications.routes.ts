import type { FastifyInstance } from 'fastify';
import { alphaId, type EmuKit } from '../kit/emu-kit.js';
import { emuTenant, notYours } from '../kit/tenant.js';
import { linkedInErrors } from './errors.js';
import { liNumericId, type LinkedInPosts } from './posts-state.js';
import type { SandboxStore } from '../store.js';
import { linkedInRoute } from './rest.js';
import type { LinkedInState } from './state.js';

/** LinkedIn keeps an organization's notifications for 60 days. */
export const LINKEDIN_NOTIFICATION_RETENTION_MS = 60 * 24 * 3_600_000;
const ORG = /^urn:li:organization:(\d+)$/;

interface StoredNotification {
  notificationId: number;
  organizationalEntity: string;
  action: string;
  sourcePost: string;
  generatedActivity: string;
  decoratedGeneratedActivity: { share: { entity: string; owner: string; text: string } };
  lastModifiedAt: number;
}

/**
 * Organization notifications (docs/inbox.md#linkedin-and-tiktok):
 * `GET /rest/organizationalEntityNotifications?q=criteria&organizationalEntity=&actions=List(…)
 * &timeRange=(start:,end:)` for an administrator with `rw_organization_admin`, oldest first,
 * 60 days kept, `start`/`count` paging (count at most 100). A customer for trying it offline:
 * `POST /_emu/inbox/mention {organization, fromName, text}` — another member posts, mentioning
 * the organization; the post is real (the Page can comment on it) and a `SHARE_MENTION`
 * notification is recorded.
 */
export function registerLinkedInNotificationRoutes(
  scope: FastifyInstance,
  deps: { kit: EmuKit; state: LinkedInState; posts: LinkedInPosts; store: SandboxStore },
) {
  const { kit, state, posts, store } = deps;
  const kind = (org: string) => `org_notifications:${org}`;

  scope.get(
    '/rest/organizationalEntityNotifications',
    linkedInRoute(true, async (request) => {
      const q = request.query as Record<string, unknown>;
      if (q.q !== 'criteria') throw linkedInErrors.badRequest('q=criteria is required.');
      const orgUrn = decodeURIComponent(String(q.organizationalEntity ?? ''));
      const org = ORG.exec(orgUrn)?.[1];
      const caller = await state.authenticate(request.headers.authorization);
      if (
        !org ||
        !caller.member.orgIds.includes(org) ||
        !caller.grant.scopes.includes('rw_organization_admin')
      )
        throw linkedInErrors.denied(`organizationalEntityNotifications/${orgUrn}`);
      const actions = /^List\((.*)\)$/.exec(String(q.actions ?? ''))?.[1]?.split(',') ?? [];
      if (actions.length === 0) throw linkedInErrors.badRequest('actions=List(...) is required.');
      const range = /^\((?:start:(\d+))?,?(?:end:(\d+))?\)$/.exec(String(q.timeRange ?? ''));
      if (!range) throw linkedInErrors.badRequest('timeRange=(start:<ms>,end:<ms>) is required.');
      const now = await kit.now();
      const from = Math.max(Number(range[1] ?? 0), now - LINKEDIN_NOTIFICATION_RETENTION_MS);
      const to = range[2] ? Number(range[2]) : Infinity;
      const start = Math.max(0, Math.floor(Number(q.start) || 0));
      const count = Math.min(100, Math.max(1, Math.floor(Number(q.count) || 10)));
      const all = (await store.list<StoredNotification>(kind(org)))
        .map((r) => r.data)
        .filter(
          (n) => actions.includes(n.action) && n.lastModifiedAt >= from && n.lastModifiedAt <= to,
        )
        .sort((a, b) => a.lastModifiedAt - b.lastModifiedAt || a.notificationId - b.notificationId);
      return {
        elements: all.slice(start, start + count),
        paging: { start, count, total: all.length },
      };
    }),
  );

  scope.post('/_emu/inbox/mention', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const organization = typeof body.organization === 'string' ? body.organization.trim() : '';
    const fromName = typeof body.fromName === 'string' ? body.fromName.trim() : '';
    const text = typeof body.text === 'string' ? body.text : '';
    const org = ORG.exec(organization)?.[1] ?? (/^\d+$/.test(organization) ? organization : '');
    if (!org || !fromName || !text.trim())
      return reply.status(400).send({ error: 'Send {organization, fromName, text}.' });
    if (!(await state.getOrganization(org)))
      return reply.status(404).send({ error: `No organization ${organization}.` });
    if (!emuTenant(request).owns(`urn:li:organization:${org}`)) throw notYours('organization');
    const now = await kit.now();
    const actor = `urn:li:person:${alphaId(`commenter:${fromName}`)}`;
    const urn = `urn:li:share:${liNumericId(now)}`;
    await posts.savePost({
      urn,
      author: actor,
      sub: '',
      commentary: text,
      visibility: 'PUBLIC',
      content: { kind: 'none' },
      createdAt: now,
    });
    const notification: StoredNotification = {
      notificationId: Number(liNumericId(now).slice(-12)),
      organizationalEntity: `urn:li:organization:${org}`,
      action: 'SHARE_MENTION',
      sourcePost: urn,
      generatedActivity: urn,
      decoratedGeneratedActivity: { share: { entity: urn, owner: actor, text } },
      lastModifiedAt: now,
    };
    await store.put(kind(org), String(notification.notificationId), notification);
    return reply.status(201).send({ id: urn, actor, notificationId: notification.notificationId });
  });
}
