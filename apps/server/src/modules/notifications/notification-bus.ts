import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/client.js';
import { CHANNEL, INBOX_CHANNEL, type InboxAnnouncement } from './notifications.repository.js';

type Listener = (notificationId: string) => void;
type OrganizationListener = (announcement: InboxAnnouncement) => void;

/**
 * Fans PostgreSQL NOTIFY announcements out to the live streams of this process. Every API
 * process listens, so a notification recorded by any process (or the worker) reaches the
 * person's open pages wherever they are connected.
 */
export class NotificationBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly organizationListeners = new Map<string, Set<OrganizationListener>>();
  private stopListening: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  subscribe(userId: string, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  /** The inbox's live events of one organization (docs/inbox.md#live). */
  subscribeOrganization(organizationId: string, listener: OrganizationListener): () => void {
    const set = this.organizationListeners.get(organizationId) ?? new Set();
    set.add(listener);
    this.organizationListeners.set(organizationId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.organizationListeners.delete(organizationId);
    };
  }

  private dispatchInbox(payload: string) {
    try {
      const announcement = JSON.parse(payload) as InboxAnnouncement;
      const organizationId = announcement.data.organizationId;
      for (const listener of this.organizationListeners.get(organizationId) ?? [])
        listener(announcement);
    } catch {
      this.log.warn('unreadable inbox announcement');
    }
  }

  private dispatch(payload: string) {
    try {
      const { id, userId } = JSON.parse(payload) as { id: string; userId: string };
      for (const listener of this.listeners.get(userId) ?? []) listener(id);
    } catch {
      this.log.warn('unreadable notification announcement');
    }
  }

  async start() {
    if (this.database.kind === 'pglite') {
      const stopNotifications = await this.database.pglite.listen(CHANNEL, (payload) =>
        this.dispatch(payload),
      );
      const stopInbox = await this.database.pglite.listen(INBOX_CHANNEL, (payload) =>
        this.dispatchInbox(payload),
      );
      this.stopListening = async () => {
        await stopNotifications();
        await stopInbox();
      };
      return;
    }
    await this.connectPg(this.database.url);
  }

  /** A dedicated connection for LISTEN; it reconnects by itself when the database comes back. */
  private async connectPg(url: string) {
    const client = new pg.Client({ connectionString: url });
    const retry = () => {
      if (this.stopped) return;
      setTimeout(() => void this.connectPg(url).catch(() => retry()), 2000).unref();
    };
    client.on('error', (err) => {
      this.log.warn(
        { err: err.message },
        'notification listener lost its connection; reconnecting',
      );
      void client.end().catch(() => {});
      retry();
    });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      if (msg.channel === INBOX_CHANNEL) this.dispatchInbox(msg.payload);
      else this.dispatch(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      await client.query(`LISTEN ${INBOX_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    this.stopListening = async () => {
      await client.end();
    };
  }

  async stop() {
    this.stopped = true;
    await this.stopListening?.().catch(() => {});
  }
}
