import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/client.js';
import { ACCESS_CHANNEL, type AccessChange } from '../../identity/access-changes.js';
import { CHANNEL, INBOX_CHANNEL, type InboxAnnouncement } from './notifications.repository.js';

type Listener = (notificationId: string) => void;
type OrganizationListener = (announcement: InboxAnnouncement) => void;
type AccessListener = (change: AccessChange) => void;

/**
 * Fans PostgreSQL NOTIFY announcements out to the live streams of this process. Every API
 * process listens, so a notification recorded by any process (or the worker) reaches the
 * person's open pages wherever they are connected.
 */
export class NotificationBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly organizationListeners = new Map<string, Set<OrganizationListener>>();
  private readonly accessListeners = new Set<AccessListener>();
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
      // Only this set: a later subscriber may have put a new one in its place.
      if (set.size === 0 && this.listeners.get(userId) === set) this.listeners.delete(userId);
    };
  }

  /** The inbox's live events of one organization (docs/inbox.md#live). */
  subscribeOrganization(organizationId: string, listener: OrganizationListener): () => void {
    const set = this.organizationListeners.get(organizationId) ?? new Set();
    set.add(listener);
    this.organizationListeners.set(organizationId, set);
    return () => {
      set.delete(listener);
      // Only this set: a later subscriber may have put a new one in its place.
      if (set.size === 0 && this.organizationListeners.get(organizationId) === set)
        this.organizationListeners.delete(organizationId);
    };
  }

  /** Changes of sessions and memberships (identity/access-changes.ts), from any process. */
  subscribeAccess(listener: AccessListener): () => void {
    this.accessListeners.add(listener);
    return () => this.accessListeners.delete(listener);
  }

  private dispatchAccess(payload: string) {
    let change: AccessChange;
    try {
      change = JSON.parse(payload) as AccessChange;
    } catch {
      this.log.warn('unreadable access announcement');
      return;
    }
    for (const listener of this.accessListeners) listener(change);
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
      const stopAccess = await this.database.pglite.listen(ACCESS_CHANNEL, (payload) =>
        this.dispatchAccess(payload),
      );
      this.stopListening = async () => {
        await stopNotifications();
        await stopInbox();
        await stopAccess();
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
      else if (msg.channel === ACCESS_CHANNEL) this.dispatchAccess(msg.payload);
      else this.dispatch(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      await client.query(`LISTEN ${INBOX_CHANNEL}`);
      await client.query(`LISTEN ${ACCESS_CHANNEL}`);
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
