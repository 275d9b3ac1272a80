import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { type AccessChange, concerns } from '../../identity/access-changes.js';
import { AppError } from '../../lib/app-error.js';
import { effectivePermissions } from '../team/membership.js';
import { readStreamAccess, type StreamGrant } from './notifications.repository.js';

/**
 * Live streams one person may hold open on one API process. Each holds a socket and listeners
 * for as long as it lives; ten covers a person's tabs and devices. The count is this process's
 * own: the cap is there to keep one account from exhausting a process.
 */
export const MAX_STREAMS_PER_USER = 10;

/**
 * How often every open stream's session and membership are read again. Announced changes
 * (logout, a revoked refresh family, a removed member, a changed role) close streams at once;
 * this bounds what is not announced — a session reaching its expiry, a change made while this
 * process's listening connection was down.
 */
export const STREAM_RECHECK_MS = 5_000;

/** Retry-After of a refused stream: the web app polls on this beat while it has no stream. */
const REFUSED_RETRY_SECONDS = 30;

/** Streams read in one statement by a recheck. */
const RECHECK_BATCH = 500;

const INBOX_PERMISSION = 'dm:view';

type Access = Awaited<ReturnType<typeof readStreamAccess>>[number];

/** What a stream may carry now. */
export interface StreamAccess {
  /** False once the stream has ended: deliver nothing more. */
  open: boolean;
  /** The organization's inbox events (dm:view). */
  inbox: boolean;
  /** The accounts whose inbox events it carries (a member limited to some); null: every one. */
  accountIds: string[] | null;
}

/** One open event stream: its grant, what it may carry, and how it ends. */
export class LiveStream {
  private ended = false;
  private endedBecause: 'session' | 'membership' | null = null;
  private inbox = false;
  private accountIds: string[] | null = null;
  private onEnd: (() => void) | null = null;
  private pending: Promise<StreamAccess> | null = null;

  constructor(
    readonly grant: StreamGrant,
    private readonly registry: LiveStreams,
  ) {}

  get access(): StreamAccess {
    return { open: !this.ended, inbox: !this.ended && this.inbox, accountIds: this.accountIds };
  }

  /** What to do when the stream ends (once): at once when it has already ended. */
  attach(onEnd: () => void) {
    this.onEnd = onEnd;
    if (this.ended) onEnd();
  }

  /**
   * Reads the stream's access as it opens: refuses (401, 403) a session or membership that is
   * gone by now, and ends the stream if the read fails.
   */
  async verify(): Promise<void> {
    try {
      const [access] = await this.registry.read([this]);
      this.apply(access!);
    } catch (err) {
      this.end();
      throw err;
    }
    if (this.endedBecause === 'session')
      throw new AppError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.');
    if (this.ended) throw new AppError('FORBIDDEN', 'You are not a member of this organization.');
  }

  /**
   * Reads the stream's access afresh and applies it; a burst of events shares one read. A read
   * that fails (the database went away) keeps what was last known.
   */
  check(): Promise<StreamAccess> {
    this.pending ??= this.registry
      .read([this])
      .then(([access]) => this.apply(access!))
      .catch(() => this.access)
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  /**
   * Ends the stream when its session or its membership is gone, or when it carried the inbox
   * and the member lost dm:view (the page opens a new stream, which carries what the member may
   * see now); a member who gains dm:view starts receiving the inbox.
   */
  apply(access: Access): StreamAccess {
    if (this.ended) return this.access;
    const permissions = access.membership
      ? effectivePermissions(access.membership.rolePermissions, access.membership.narrowed)
      : null;
    const inbox = Boolean(permissions?.includes(INBOX_PERMISSION));
    if (!access.live || !permissions || (this.inbox && !inbox)) {
      this.endedBecause = !access.live ? 'session' : 'membership';
      this.end();
    } else {
      this.inbox = inbox;
      this.accountIds = access.membership?.accountIds ?? null;
    }
    return this.access;
  }

  /** Ends the stream and gives back its place under the cap; safe to call again. */
  end() {
    if (this.ended) return;
    this.ended = true;
    this.registry.forget(this);
    this.onEnd?.();
  }
}

/**
 * The event streams open on this process. Each ends when its session ends or its person's
 * membership of the organization is lost: at once on an announced change (from any process, on
 * the notification bus), else at the next recheck; every event is also checked as it is sent.
 */
export class LiveStreams {
  private readonly streams = new Set<LiveStream>();
  private readonly perUser = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private sweeping = false;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Registers a stream before its access is read, so a change announced meanwhile reaches it.
   * Refuses (429) a person who holds MAX_STREAMS_PER_USER on this process already.
   */
  open(grant: StreamGrant): LiveStream {
    const held = this.perUser.get(grant.userId) ?? 0;
    if (held >= MAX_STREAMS_PER_USER) throw new TooManyStreams();
    const stream = new LiveStream(grant, this);
    this.streams.add(stream);
    this.perUser.set(grant.userId, held + 1);
    return stream;
  }

  /** @internal Called by a stream as it ends. */
  forget(stream: LiveStream) {
    if (!this.streams.delete(stream)) return;
    const held = (this.perUser.get(stream.grant.userId) ?? 1) - 1;
    if (held > 0) this.perUser.set(stream.grant.userId, held);
    else this.perUser.delete(stream.grant.userId);
  }

  /** @internal The access of these streams now, in their order. */
  read(streams: readonly LiveStream[]) {
    return readStreamAccess(
      this.db,
      streams.map((s) => s.grant),
      this.now(),
    );
  }

  /** Reads the access of every open stream `change` concerns and ends those that lost it. */
  onAccessChange(change: AccessChange) {
    const concerned = [...this.streams].filter((s) => concerns(change, s.grant));
    void this.recheck(concerned).catch((err: unknown) =>
      this.log.warn({ err }, 'could not recheck live streams after an access change'),
    );
  }

  private async recheck(streams: LiveStream[]) {
    for (let i = 0; i < streams.length; i += RECHECK_BATCH) {
      const batch = streams.slice(i, i + RECHECK_BATCH);
      const access = await this.read(batch);
      batch.forEach((stream, n) => stream.apply(access[n]!));
    }
  }

  /** Rechecks every open stream each STREAM_RECHECK_MS (one statement per 500 streams). */
  start() {
    this.timer ??= setInterval(() => {
      if (this.sweeping || this.streams.size === 0) return;
      this.sweeping = true;
      this.recheck([...this.streams])
        .catch((err: unknown) => this.log.warn({ err }, 'could not recheck live streams'))
        .finally(() => {
          this.sweeping = false;
        });
    }, STREAM_RECHECK_MS);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The person holds as many streams on this process as one may. */
export class TooManyStreams extends AppError {
  readonly retryAfterSeconds = REFUSED_RETRY_SECONDS;

  constructor() {
    super(
      'RATE_LIMITED',
      `You have ${MAX_STREAMS_PER_USER} live update streams open already. Close some Herald ` +
        `tabs or windows, or try again in ${REFUSED_RETRY_SECONDS} seconds.`,
    );
  }
}
