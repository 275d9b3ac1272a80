import { randomUUID } from 'node:crypto';
import {
  applyLinkTracking,
  contentForAccount,
  mediaGoesTo,
  platformSlug,
  replaceLinks,
} from '@herald/contract';
import { shortenLinks, targetShortensLinks } from '../short-links/short-links.service.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import type { MediaStore } from '../../media/media-store.js';
import { PlatformError, UnreadableTokensError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type {
  PublishingAdapter,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../../platforms/types.js';
import {
  markTokensUnreadable,
  refreshAccount,
  toStoredAccount,
} from '../integrations/integrations.service.js';
import { contentOf } from '../posts/post-dto.js';
import { recordPublication } from '../../lib/metrics.js';
import { capsOf, Semaphores, type PublishSlots } from './caps.js';
import {
  announceFollowUpProblem,
  announceOutcome,
  describeOutcome,
} from './outcome-notifications.js';
import type { PublishQueue } from './publish-queue.js';
import {
  backoffMs,
  MAX_ATTEMPTS,
  MAX_RATE_LIMITED_ATTEMPTS,
  rateLimitBackoffMs,
  rateLimitGiveUpMessage,
} from './retry-policy.js';
import * as repo from './targets.repository.js';
import { findFollowUp, publishFollowUps, type FollowUpsOutcome } from './follow-ups.js';
import {
  followUpById,
  followUpsOf as followUpsOfTarget,
  hasQueuedFollowUps,
  transitionFollowUp,
} from './follow-ups.repository.js';
import { followUpLabel, webUrlOrNull, youtubeUploadsAhead } from '@herald/contract';
import { uploadedAheadOf, uploadFingerprint, type UploadedAhead } from './uploaded-ahead.js';
import type { Withdrawal } from '../posts/posts.service.js';

/** What a run following an upload waiting at the network was doing (uploadedProblem's words). */
type UploadedStep = 'withdraw' | 'move' | 'publish' | 'confirm';

export interface PublisherDeps {
  db: Db;
  networks: Map<string, NetworkRuntime>;
  media: MediaStore;
  cipher: TokenCipher;
  queue: PublishQueue;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Longest a single run waits for a network's processing before handing back to the queue. */
  checkBudgetMs?: number;
  /** Told once a target is published (analytics schedules its snapshots); never fails publishing. */
  onPublished?: (targetId: string, publishedAt: Date) => Promise<void>;
  /**
   * This process's row in herald_processes: every claim records it as the target's holder, so
   * that another worker settles the target within a minute if this process dies holding it
   * (watchdog.ts, settleOrphans). Without it the targets are left to the time-based watchdog.
   */
  processId?: string;
  /**
   * The caps' slots (caps.ts): shared by every process on PostgreSQL (shared-slots.ts); this
   * process's own when left out, as on PGlite, where one process publishes.
   */
  slots?: PublishSlots;
  /** `PUBLIC_URL/l/`: where short links start (docs/analytics.md#short-links); absent: none made. */
  shortLinkBase?: string;
}

/** What the watchdog learns about a target a dead worker left PUBLISHING. */
export type StuckOutcome = 'PUBLISHED' | 'LATER' | 'UNKNOWN' | 'BUSY';

/** UPLOADED: uploaded ahead, the network publishes it at its time (uploaded-ahead.ts). */
export type RunOutcome =
  'PUBLISHED' | 'UPLOADED' | 'FAILED' | 'UNCERTAIN' | 'RETRY_LATER' | 'BUSY' | 'SKIPPED';

/** Waits `ms`, or less when `signal` aborts first. */
const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

type Loaded = repo.LoadedTarget;
type IntegrationRow = NonNullable<Loaded['integration']>;
/** The account's row and tokens as a run last knew them (a refresh replaces both). */
interface Access {
  row: IntegrationRow;
  account: StoredAccount;
}

/** A target this run holds in PUBLISHING, with what finalize sends. */
interface Claimed {
  row: repo.TargetRow;
  request: PublishRequest;
  attemptId: string;
}

/** "The X account Name (@handle)", as far as the target knows its account. */
function accountOfTarget(loaded: Loaded): string {
  const { target, integration, platformName } = loaded;
  const name = integration?.name ?? target.accountName;
  const username = integration?.username ?? target.accountUsername;
  const handle = username ? `@${username}` : null;
  const who =
    name && handle && name !== username ? `${name} (${handle})` : (name ?? handle ?? null);
  return who ? `The ${platformName} account ${who}` : `The ${platformName} account`;
}

/** Why a target whose account is gone or broken cannot go out, naming that account. */
function notConnectedReason(loaded: Loaded): string {
  const account = accountOfTarget(loaded);
  if (!loaded.integration) {
    return `${account} was disconnected; reconnect it in Settings or choose another account, then publish again.`;
  }
  return `${account} needs to be reconnected; reconnect it in Settings or choose another account, then publish again.`;
}

/**
 * Moves one target from QUEUED to PUBLISHED, FAILED or UNCERTAIN, one guarded step at a time.
 * Every step is an UPDATE … WHERE status = expected, so two workers racing for the same target
 * cannot both act, and a crash leaves the target in a state the watchdog can explain. The one
 * visible call (finalize) is never repeated unless the network says for certain it did nothing.
 */
export class Publisher {
  private readonly slots: PublishSlots;
  private readonly accounts = new WeakMap<IntegrationRow, StoredAccount>();
  constructor(private readonly deps: PublisherDeps) {
    this.slots = deps.slots ?? new Semaphores();
  }

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  /** What a claim records as the target's holder. */
  private get holder() {
    return this.deps.processId ?? null;
  }

  /**
   * Runs a batch of targets (a job fetch) at once, read together in one statement. Each run then
   * goes on as `run` does: the read is what `run` would have made at the same moment, and every
   * step after it is guarded by the target's state in the database, not by this read.
   * `signal`: the worker is stopping (see `handBack`).
   */
  async runMany(targetIds: string[], signal?: AbortSignal): Promise<RunOutcome[]> {
    if (targetIds.length <= 1)
      return Promise.all(targetIds.map((id) => this.run(id, undefined, signal)));
    const loaded = await repo.loadTargets(this.deps.db, targetIds);
    return Promise.all(targetIds.map((id) => this.run(id, loaded.get(id) ?? null, signal)));
  }

  /**
   * `preloaded`: the target as `runMany` read it (null: it does not exist); else it is read.
   * What escapes a run (the database failing mid-way) is logged here with the target, then
   * thrown on for the job to be tried again.
   */
  async run(
    targetId: string,
    preloaded?: Loaded | null,
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    try {
      return await this.runTarget(targetId, preloaded, signal);
    } catch (err) {
      this.deps.log.error({ err, targetId }, 'publishing a target failed unexpectedly');
      throw err;
    }
  }

  private async runTarget(
    targetId: string,
    preloaded?: Loaded | null,
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    const loaded =
      preloaded === undefined ? await repo.loadTarget(this.deps.db, targetId) : preloaded;
    if (!loaded) return 'SKIPPED';
    const { target, post } = loaded;
    // Out already: what may still follow it is its thread's parts and its first comment.
    if (target.status === 'PUBLISHED') {
      if (await hasQueuedFollowUps(this.deps.db, target.id)) await this.runFollowUps(target.id);
      return 'PUBLISHED';
    }
    if (repo.FINAL.includes(target.status)) return target.status as RunOutcome;
    // Uploaded ahead: it follows its post, whatever the post became (a draft takes it back).
    if (target.status === 'UPLOADED') return this.followUploaded(loaded);
    if (post.status === 'draft' || post.status === 'published') return 'SKIPPED';
    // A job that outlived a reschedule to a later time: the moved job will come.
    if (target.dueAt && target.dueAt.getTime() > this.now().getTime() + 1000) return 'SKIPPED';
    const network = this.deps.networks.get(platformSlug(loaded.platformName));
    const publishing = network?.adapter.publishing;
    if (!network || !publishing) {
      return this.fail(
        loaded,
        target.status,
        `Publishing to ${loaded.platformName} is not available on this server.`,
      );
    }
    // Only the account the post names publishes it; never another account of the network.
    if (!loaded.integration || loaded.integration.status !== 'CONNECTED') {
      return this.fail(loaded, target.status, notConnectedReason(loaded));
    }
    // Tokens this server cannot read: no step can go on, now or after a retry.
    try {
      this.accountOf(loaded);
    } catch (err) {
      if (err instanceof UnreadableTokensError) return this.failUnreadable(loaded, err);
      throw err;
    }
    const slots = await this.takeSlots(network.slug, loaded.integration.id, signal);
    // A stopping worker ended the wait: nothing was started.
    if (!slots)
      return ['QUEUED', 'READY'].includes(target.status) ? this.handBack(target.id) : 'BUSY';
    try {
      const outcome = await this.advance(loaded, network, publishing, signal);
      // Most posts have no thread parts nor first comment: nothing more to read then.
      if (outcome === 'PUBLISHED' && loaded.hasFollowUps)
        await this.followUpsOf(targetId, network, publishing);
      if (outcome !== 'UPLOADED') return outcome;
      // Uploaded ahead of a time that is already here (Publish now): it goes public at once.
      const uploaded = await repo.loadTarget(this.deps.db, targetId);
      const due = uploaded?.target.dueAt;
      if (uploaded?.target.status !== 'UPLOADED' || !due || due > this.now()) return outcome;
      return await this.followUploaded(uploaded);
    } finally {
      slots();
    }
  }

  /**
   * A target uploaded ahead (UPLOADED): the network publishes it at its time by itself
   * (docs/networks.md#youtube-publishing), and until then it follows its post. When the post no
   * longer goes out then (back to draft, waiting for approval, deleted: `leaving`), or what was
   * uploaded changed (text, files, settings), the upload is withdrawn, then uploaded anew by the
   * usual steps if the post still goes out: one video at the network at any time. A new time is
   * moved at the network. Once its time has come the video is read once more and the target is
   * PUBLISHED, with no second upload. A run claims the target (a new attempt) before any call,
   * and each step is guarded by that attempt, so of two runs only one calls and records.
   */
  private async followUploaded(read: Loaded, leaving = false): Promise<RunOutcome> {
    const { db } = this.deps;
    // Claimed before any call: a new attempt swapped in for the one this run read, so of two
    // runs only one calls the network (one deleting the video while the other moves it would
    // leave the target naming a video that is gone). The other is tried again shortly: what
    // it was asked to follow may be newer than what the first run read.
    const claimed = await repo.transition(
      db,
      read.target.id,
      ['UPLOADED'],
      'UPLOADED',
      { attemptId: randomUUID() },
      read.target.attemptId ?? undefined,
    );
    if (!claimed) {
      const busy = await repo.loadTarget(db, read.target.id);
      if (busy?.target.status === 'UPLOADED')
        await this.deps.queue.retryAt(read.target.id, new Date(this.now().getTime() + 5_000));
      return 'BUSY';
    }
    const loaded: Loaded = { ...read, target: claimed };
    const { target, post } = loaded;
    const now = this.now();
    const ahead = uploadedAheadOf(target.publishState);
    const guard = (to: repo.TargetStatus, values: Partial<repo.TargetRow>) =>
      repo.transition(db, target.id, ['UPLOADED'], to, values, target.attemptId ?? undefined);
    const scheduledAt = post.scheduledAt;
    const goesOut =
      !leaving && scheduledAt !== null && repo.POST_STATUSES_THAT_PUBLISH.includes(post.status);
    const changed = !ahead || ahead.fingerprint !== uploadFingerprint(loaded);
    const due = target.dueAt ?? scheduledAt ?? now;
    const timeHasCome = due.getTime() <= now.getTime() + 1000;
    const network = this.deps.networks.get(platformSlug(loaded.platformName));
    const publishing = network?.adapter.publishing;
    const videoId = target.externalId;
    // Once the network's own time has passed, the video is out as it was uploaded: a change
    // that came too late to replace it (its withdrawal kept failing) no longer does.
    const outAlready = ahead !== null && Date.parse(ahead.publishAt) <= now.getTime();
    let doing: UploadedStep =
      goesOut && (!changed || (timeHasCome && outAlready))
        ? timeHasCome
          ? 'publish'
          : 'move'
        : 'withdraw';
    // Moved before the network's time (Publish now): to be made public now, not at that time.
    const early = ahead !== null && Date.parse(ahead.publishAt) > now.getTime() + 60_000;
    // Its network's time has come: YouTube publishes it whether Herald can still reach the
    // account or not.
    if (doing === 'publish' && !early) doing = 'confirm';
    try {
      if (!network || !publishing?.withdraw || !publishing.reschedule || !videoId)
        throw new PlatformError(
          'bad_request',
          `Following an upload at ${loaded.platformName} is not available on this server.`,
        );
      // The account is needed only for a call: a target whose account was disconnected still
      // follows a post that asks nothing of the network (its time unchanged).
      let access: Access | null = null;
      const call = async <T>(fn: (account: StoredAccount) => Promise<T>) => {
        if (!loaded.integration || loaded.integration.status !== 'CONNECTED')
          throw new PlatformError('reauth', notConnectedReason(loaded));
        access ??= { row: loaded.integration, account: this.accountOf(loaded) };
        return this.withRefresh(network, access, fn);
      };

      if (doing === 'withdraw') {
        await call((a) => publishing.withdraw!(a, videoId));
        const again =
          goesOut && youtubeUploadsAhead(target.settings) && scheduledAt! > now ? now : null;
        const dueAt = goesOut ? (again ?? scheduledAt) : null;
        const back = await guard('QUEUED', {
          externalId: null,
          permalink: null,
          embed: null,
          publishState: {},
          error: null,
          attempts: 0,
          attemptId: null,
          dueAt,
        });
        if (!back) return 'BUSY';
        if (dueAt) await this.deps.queue.retryAt(target.id, dueAt);
        if (goesOut) await repo.settlePostStatus(db, post.id, now);
        return 'RETRY_LATER';
      }

      if (doing === 'publish' || doing === 'confirm') {
        const lookUp = publishing.lookUpScheduled?.bind(publishing);
        // Made public at once (Publish now) only once read to be there: a read that fails then
        // publishes nothing.
        let found = lookUp ? await call((a) => lookUp(a, videoId)) : undefined;
        if (found && early) {
          await call((a) => publishing.reschedule!(a, videoId, null));
          doing = 'confirm';
          found = await call((a) => lookUp!(a, videoId));
        }
        if (found === null) {
          // Nothing of the old upload is kept: publishing again starts a new one.
          const message = `The video Herald uploaded ahead is no longer on ${loaded.platformName} (it was deleted there before its time). Publish the post to this account again to upload it anew.`;
          const row = await guard('FAILED', {
            error: message,
            externalId: null,
            permalink: null,
            embed: null,
            publishState: {},
          });
          if (!row) return 'BUSY';
          await this.settle(loaded, row, 'FAILED', message);
          return 'FAILED';
        }
        return this.publishedAtItsTime(loaded, found ?? null, ahead);
      }

      // Still to come: the network's time follows the post's.
      const at = scheduledAt!;
      if (!ahead || Date.parse(ahead.publishAt) !== at.getTime()) {
        await call((a) => publishing.reschedule!(a, videoId, at));
        const publishAt = at.toISOString();
        const moved = await guard('UPLOADED', {
          attemptId: randomUUID(),
          error: null,
          attempts: 0,
          dueAt: at,
          embed: { ...(target.embed ?? {}), publishAt },
          publishState: {
            ...target.publishState,
            uploadedAhead: { fingerprint: ahead?.fingerprint ?? '', publishAt },
          },
        });
        if (!moved) return 'BUSY';
      } else if (target.error) {
        await guard('UPLOADED', { error: null, attempts: 0 });
      }
      await this.deps.queue.retryAt(target.id, at);
      return 'UPLOADED';
    } catch (err) {
      // The time has come and only the reading failed: the network publishes it all the same.
      if (doing === 'confirm') return this.publishedAtItsTime(loaded, null, ahead);
      // Not made public now: the network's own time is the one to wait for.
      const later = doing === 'publish' && ahead ? new Date(ahead.publishAt) : null;
      return this.uploadedProblem(loaded, doing, err, later ?? (goesOut ? due : null));
    }
  }

  /** UPLOADED → PUBLISHED once the network's time has come, as any publication ends. */
  private async publishedAtItsTime(
    loaded: Loaded,
    found: PublishResult | null,
    ahead: UploadedAhead | null,
  ): Promise<RunOutcome> {
    const { target, post } = loaded;
    const now = this.now();
    const due = target.dueAt ?? post.scheduledAt ?? now;
    // The network published it at its own time, or now when that time was moved earlier.
    const at = ahead ? Math.min(now.getTime(), Date.parse(ahead.publishAt)) : now.getTime();
    const publishedAt = new Date(Math.max(at, Math.min(due.getTime(), now.getTime())));
    const row = await repo.transition(
      this.deps.db,
      target.id,
      ['UPLOADED'],
      'PUBLISHED',
      {
        externalId: found?.externalId ?? target.externalId,
        permalink: found ? webUrlOrNull(found.permalink) : target.permalink,
        embed: found?.extra ?? target.embed,
        error: null,
        publishedAt,
        latenessMs: Math.max(0, publishedAt.getTime() - due.getTime()),
      },
      target.attemptId ?? undefined,
    );
    if (!row) return 'BUSY';
    await this.settle(loaded, row, 'PUBLISHED', null);
    await this.deps.onPublished?.(target.id, publishedAt).catch((err: unknown) => {
      this.deps.log.warn({ err, targetId: target.id }, 'after-publish hook failed');
    });
    if (loaded.hasFollowUps) await this.deps.queue.retryAt(target.id, now);
    return 'PUBLISHED';
  }

  /**
   * A call following an upload failed: the target stays UPLOADED (the network still has the
   * video, at its time) with a sentence saying so on the post, and is tried again after a
   * backoff when the failure may pass, else when its time comes.
   */
  private async uploadedProblem(
    loaded: Loaded,
    doing: UploadedStep,
    err: unknown,
    due: Date | null,
  ): Promise<RunOutcome> {
    const { target, platformName } = loaded;
    if (!(err instanceof PlatformError) && !(err instanceof UnreadableTokensError))
      this.deps.log.error({ err, targetId: target.id }, 'following an upload failed unexpectedly');
    const why =
      err instanceof PlatformError || err instanceof UnreadableTokensError
        ? err.message.replace(/\.$/, '')
        : 'an unexpected error, in the server’s log';
    const reconnect =
      err instanceof PlatformError && err.kind === 'reauth'
        ? ' Reconnect the account in Settings.'
        : '';
    const sentence: Record<UploadedStep, string> = {
      withdraw: `Herald could not delete the video it uploaded ahead to ${platformName} (${why}), so ${platformName} still publishes it at the time it was uploaded for.${reconnect} Herald tries again until then (and once the account is reconnected); you can also delete it in ${platformName}.`,
      move: `Herald could not move the video it uploaded ahead to the post's new time (${why}), so ${platformName} still publishes it at its earlier time.${reconnect} Herald tries again until then (and once the account is reconnected).`,
      publish: `Herald could not make the video it uploaded ahead public now (${why}); ${platformName} publishes it at the time it was uploaded for.${reconnect}`,
      confirm: `Herald could not read the video it uploaded ahead (${why}).${reconnect}`,
    };
    const passing =
      err instanceof PlatformError && (err.kind === 'transient' || err.kind === 'rate_limited');
    const attempts = target.attempts + 1;
    const now = this.now();
    let retry =
      passing && attempts < MAX_ATTEMPTS
        ? new Date(now.getTime() + backoffMs(attempts))
        : due && due > now
          ? due
          : null;
    // A video to delete or move is tried again, whatever the failure, while the network has not
    // published it yet (backing off up to the engine's longest wait, never past that time):
    // an account reconnected meanwhile, or a passing refusal, lets the next try through.
    const ahead = uploadedAheadOf(target.publishState);
    const networkAt = ahead ? Date.parse(ahead.publishAt) : Number.NaN;
    if ((doing === 'withdraw' || doing === 'move') && networkAt > now.getTime()) {
      const next = Math.min(now.getTime() + backoffMs(attempts), networkAt);
      if (!retry || retry.getTime() > next) retry = new Date(next);
    }
    const kept = await repo.transition(
      this.deps.db,
      target.id,
      ['UPLOADED'],
      'UPLOADED',
      { error: sentence[doing], attempts, ...(doing === 'publish' && due ? { dueAt: due } : {}) },
      target.attemptId ?? undefined,
    );
    if (!kept) return 'BUSY';
    this.deps.log.warn(
      { targetId: target.id, platform: platformName, doing, reason: why },
      'following an upload failed',
    );
    if (retry) await this.deps.queue.retryAt(target.id, retry);
    return 'RETRY_LATER';
  }

  /**
   * Before the organization's posts are deleted: their uploads waiting at the network are
   * withdrawn (a deleted post's job cannot do it afterwards). Says, in the network's words, which
   * are still there; `undo` puts the targets withdrawn here back on their way, for a deletion
   * that does not happen after all.
   */
  async withdrawUploaded(organizationId: string, postIds: string[]): Promise<Withdrawal> {
    const problems: string[] = [];
    const withdrawn: string[] = [];
    const stays: string[] = [];
    for (const { id, integrationId } of await repo.uploadedTargetsOf(
      this.deps.db,
      organizationId,
      postIds,
    )) {
      const loaded = await repo.loadTarget(this.deps.db, id);
      // Nothing to reach the network with: the video stays there, and the user is told so.
      if (!integrationId) {
        if (loaded) stays.push(accountOfTarget(loaded).replace(/^The /, 'the '));
        continue;
      }
      if (!loaded || loaded.target.status !== 'UPLOADED') continue;
      await this.followUploaded(loaded, true);
      const after = await repo.loadTarget(this.deps.db, id);
      if (after?.target.status === 'UPLOADED')
        problems.push(after.target.error ?? 'The uploaded video is still there.');
      else if (after?.target.status === 'QUEUED') withdrawn.push(id);
    }
    return {
      problem:
        problems.length > 0
          ? `This post was not deleted: ${problems.join(' ')} Try deleting it again.`
          : null,
      notice:
        stays.length > 0
          ? `Herald could not delete the video${stays.length === 1 ? '' : 's'} it uploaded ahead from ${stays.join(', ')}, as ${stays.length === 1 ? 'that account was' : 'those accounts were'} disconnected: ${stays.length === 1 ? 'it goes' : 'they go'} public at the time ${stays.length === 1 ? 'it was' : 'they were'} uploaded for unless you delete ${stays.length === 1 ? 'it' : 'them'} there.`
          : null,
      undo: () => this.dueAgain(withdrawn),
    };
  }

  /**
   * Targets whose upload was withdrawn for a deletion that did not happen: due again as the
   * post's scheduling makes them (an upload ahead is due now), if the post still goes out and
   * nothing gave them a time meanwhile. Never throws: the deletion's refusal is what the caller
   * answers.
   */
  private async dueAgain(targetIds: string[]) {
    for (const id of targetIds) {
      try {
        const loaded = await repo.loadTarget(this.deps.db, id);
        if (!loaded) continue;
        const { target, post } = loaded;
        const dueAt = this.dueFor(target, post);
        if (target.status !== 'QUEUED' || target.dueAt !== null || !dueAt) continue;
        if (await repo.setDueIfUnset(this.deps.db, id, dueAt))
          await this.deps.queue.retryAt(id, dueAt);
      } catch (err) {
        this.deps.log.error({ err, targetId: id }, 'putting a withdrawn upload back failed');
      }
    }
  }

  /**
   * When a waiting target of `post` is due, as its scheduling sets it: now for an upload ahead of
   * a time still to come, else the post's time; null when the post does not go out.
   */
  private dueFor(target: repo.TargetRow, post: Loaded['post']): Date | null {
    const at = post.scheduledAt;
    if (!at || !repo.POST_STATUSES_THAT_PUBLISH.includes(post.status)) return null;
    const now = this.now();
    return youtubeUploadsAhead(target.settings) && at > now ? now : at;
  }

  /**
   * Accounts just connected or reconnected: their uploads waiting at the network follow their
   * posts again now (a withdrawal or move refused while the account could not be reached).
   */
  async followAccounts(integrationIds: string[]) {
    for (const { id } of await repo.uploadedOfAccounts(this.deps.db, integrationIds))
      await this.deps.queue.retryAt(id, this.now());
  }

  /**
   * A slot of the account where its network needs one at a time, then one of the network's; null
   * when `signal` ends the wait. The account's comes first: waiting for it must not hold one of
   * the network's slots (and no run waits for an account while holding a network slot, so two
   * runs never wait for each other's).
   */
  private async takeSlots(
    slug: string,
    integrationId: string,
    signal?: AbortSignal,
  ): Promise<(() => void) | null> {
    const caps = capsOf(slug);
    const account = caps.perAccount
      ? await this.slots.acquire(`account:${integrationId}`, caps.perAccount, signal)
      : () => {};
    if (!account) return null;
    let network: (() => void) | null;
    try {
      network = await this.slots.acquire(`network:${slug}`, caps.concurrency, signal);
    } catch (err) {
      account();
      throw err;
    }
    if (!network) {
      account();
      return null;
    }
    return () => {
      network();
      account();
    };
  }

  /**
   * The parts and first comment of a published target (docs/product.md#threads-and-first-comments),
   * in the account's slot like the post itself. Their outcome is on their own rows: a failed part
   * does not make the post less published.
   */
  async runFollowUps(targetId: string): Promise<FollowUpsOutcome | 'SKIPPED'> {
    const loaded = await repo.loadTarget(this.deps.db, targetId);
    if (!loaded || loaded.target.status !== 'PUBLISHED') return 'SKIPPED';
    const network = this.deps.networks.get(platformSlug(loaded.platformName));
    const publishing = network?.adapter.publishing;
    if (!network || !publishing || !loaded.integration) return 'SKIPPED';
    const slots = (await this.takeSlots(network.slug, loaded.integration.id))!;
    try {
      return await this.followUpsOf(targetId, network, publishing);
    } finally {
      slots();
    }
  }

  private async followUpsOf(
    targetId: string,
    network: NetworkRuntime,
    publishing: PublishingAdapter,
  ): Promise<FollowUpsOutcome | 'SKIPPED'> {
    // Most posts have no parts nor first comment: one look, and nothing more to read.
    const parts = await followUpsOfTarget(this.deps.db, targetId);
    if (parts.length === 0) return 'DONE';
    // Read again: the run that published the post may have refreshed the account's tokens.
    const loaded = await repo.loadTarget(this.deps.db, targetId);
    if (!loaded?.integration || loaded.target.status !== 'PUBLISHED') return 'SKIPPED';
    const integration = loaded.integration;
    // Read at the first call: tokens this server cannot read fail that part with the reason.
    let access: Access | null = null;
    const problems = new Set(['FAILED', 'UNCERTAIN']);
    const before = new Map(parts.map((row) => [row.id, row.status]));
    try {
      const outcome = await publishFollowUps(
        { db: this.deps.db, queue: this.deps.queue, log: this.deps.log, now: () => this.now() },
        publishing,
        async (call) => {
          access ??= { row: integration, account: this.accountOf(loaded) };
          return this.withRefresh(network, access, call);
        },
        {
          id: loaded.target.id,
          externalId: loaded.target.externalId,
          platformName: loaded.platformName,
        },
      );
      // Each part or first comment that has just failed or needs a check: the author is told.
      for (const row of await followUpsOfTarget(this.deps.db, targetId)) {
        if (!problems.has(row.status) || problems.has(before.get(row.id) ?? '')) continue;
        await announceFollowUpProblem(this.deps.db, {
          organizationId: loaded.post.organizationId,
          postId: loaded.post.id,
          targetId,
          authorId: loaded.post.createdByUserId,
          platformName: loaded.platformName,
          error: row.error ?? 'It could not be published.',
          uncertain: row.status === 'UNCERTAIN',
        }).catch((err: unknown) =>
          this.deps.log.error({ err, targetId }, 'telling about a failed part failed'),
        );
      }
      return outcome;
    } catch (err) {
      // A row left PUBLISHING is the watchdog's to look up; QUEUED ones are picked up again.
      this.deps.log.error({ err, targetId }, 'publishing the parts of a post failed unexpectedly');
      return 'BUSY';
    }
  }

  /**
   * For the watchdog: a part or first comment a stopped worker left PUBLISHING. Found at the
   * network, it is PUBLISHED and the rest follows; otherwise UNCERTAIN with a sentence (as for a
   * stuck post, "not there" proves nothing: the dead worker's call may still land).
   */
  async reconcileStuckFollowUp(followUpId: string, attemptId: string | null) {
    const row = await followUpById(this.deps.db, followUpId);
    if (!row || row.status !== 'PUBLISHING' || row.attemptId !== attemptId) return 'BUSY';
    const loaded = await repo.loadTarget(this.deps.db, row.targetId);
    if (!loaded) return 'BUSY';
    const rows = await followUpsOfTarget(this.deps.db, row.targetId);
    const label = followUpLabel(row, rows.filter((r) => r.kind === 'part').length + 1);
    const network = this.deps.networks.get(platformSlug(loaded.platformName));
    const publishing = network?.adapter.publishing;
    let found: PublishResult | null = null;
    if (network && publishing && loaded.integration && loaded.target.externalId) {
      const integration = loaded.integration;
      const postId = loaded.target.externalId;
      found = await Promise.resolve()
        .then(() => {
          const access: Access = { row: integration, account: this.accountOf(loaded) };
          return this.withRefresh(network, access, (a) =>
            findFollowUp(publishing, a, postId, row.text),
          );
        })
        .catch((err: unknown) => {
          this.deps.log.warn({ err, followUpId }, 'could not look up a stuck thread part');
          return null;
        });
    }
    const attempt = attemptId ?? undefined;
    if (found) {
      const done = await transitionFollowUp(
        this.deps.db,
        row.id,
        ['PUBLISHING'],
        'PUBLISHED',
        {
          externalId: found.externalId,
          permalink: found.permalink,
          error: null,
          publishedAt: this.now(),
        },
        attempt,
      );
      if (done) await this.deps.queue.retryAt(row.targetId, this.now());
      return done ? 'PUBLISHED' : 'BUSY';
    }
    const moved = await transitionFollowUp(
      this.deps.db,
      row.id,
      ['PUBLISHING'],
      'UNCERTAIN',
      {
        error: `${label}: Herald lost track of it while publishing it to ${loaded.platformName} (the worker stopped), and ${loaded.platformName} could not confirm whether it went out. Check ${loaded.platformName}, then mark it as published or retry.`,
      },
      attempt,
    );
    return moved ? 'UNCERTAIN' : 'BUSY';
  }

  /**
   * The worker running this target is stopping and its grace period is over: the target is left
   * (or put back) where another worker's run continues it — QUEUED, or READY — never in a step
   * nobody runs, and its job is given back now (the stopping worker's job may already have been
   * retried elsewhere and found the target busy).
   */
  private async handBack(targetId: string): Promise<RunOutcome> {
    await this.deps.queue.retryAt(targetId, this.now());
    return 'RETRY_LATER';
  }

  private async advance(
    loaded: Loaded,
    network: NetworkRuntime,
    publishing: PublishingAdapter,
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    const { db } = this.deps;
    let target = loaded.target;
    // Nothing claimed yet: a stopping worker starts nothing.
    if (signal?.aborted && (target.status === 'QUEUED' || target.status === 'READY'))
      return this.handBack(target.id);
    const request = await this.requestFor(loaded);
    if (target.status === 'QUEUED') {
      const direct = await this.claimPreparedLocally(loaded, network, publishing, request);
      if (direct === 'BUSY') return 'BUSY';
      if (direct) return this.finalize(loaded, network, publishing, direct);
    }
    if (target.status === 'QUEUED') {
      const claimed = await repo.claimDue(
        db,
        target.id,
        'QUEUED',
        { status: 'PREPARING', attempts: target.attempts + 1, heldBy: this.holder },
        new Date(this.now().getTime() + 1000),
      );
      if (!claimed) return 'BUSY';
      target = claimed;
    } else if (target.status !== 'READY') {
      // PREPARING or PUBLISHING held by another run (or a dead one: the watchdog decides).
      return 'BUSY';
    }
    const access: Access = { row: loaded.integration!, account: this.accountOf(loaded) };
    const withAccess = <T>(call: (account: StoredAccount) => Promise<T>) =>
      this.withRefresh(network, access, call);

    if (target.status === 'PREPARING') {
      let state = target.publishState;
      // Whatever fails from here on ends in handleBeforeFinalize: the target never stays
      // PREPARING without an error and a log line.
      try {
        await repo.markPostPublishing(db, target.postId);
        if (Object.keys(state).length === 0) {
          state = await withAccess((a) => publishing.prepare(a, request));
          // Kept before check runs: an upload check continues (Facebook's resumable upload) is
          // resumed by the next run, not started again, if this one stops part-way.
          const kept = await repo.transition(db, target.id, ['PREPARING'], 'PREPARING', {
            publishState: state,
            heldBy: this.holder,
          });
          if (!kept) return 'BUSY';
        }
        // A stop ends the wait for the network's processing: what prepare made is kept on the
        // target and the next run (another worker's) checks on it instead of preparing again.
        const ready = await this.waitUntilReady(publishing, withAccess, state, request, signal);
        if (!ready.done) {
          await repo.transition(db, target.id, ['PREPARING'], 'QUEUED', {
            publishState: ready.state,
          });
          await this.deps.queue.retryAt(
            target.id,
            new Date(this.now().getTime() + ready.retryAfterMs),
          );
          return 'RETRY_LATER';
        }
        state = ready.state;
      } catch (err) {
        return this.handleBeforeFinalize(loaded, 'PREPARING', err, state);
      }
      // Still held: the run goes on to the visible call.
      const readied = await repo.transition(db, target.id, ['PREPARING'], 'READY', {
        publishState: state,
        heldBy: this.holder,
      });
      if (!readied) return 'BUSY';
      target = readied;
    }
    return this.publishReady(loaded, network, publishing, target, request, signal);
  }

  /**
   * The visible call of a READY target. Where the network caps an account's posts a day
   * (Instagram, Threads, LinkedIn), counting them and publishing are one step for the account
   * across every process: its `daily:` slot is held from the count until the outcome is stored,
   * so two runs cannot both take the day's last post. It is the last slot a run takes: its holder
   * waits for no other.
   */
  private async publishReady(
    loaded: Loaded,
    network: NetworkRuntime,
    publishing: PublishingAdapter,
    target: repo.TargetRow,
    request: PublishRequest,
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    const { db } = this.deps;
    // Daily caps of the network (Instagram, Threads, Facebook Reels…), counted per account.
    const perDay = capsOf(network.slug).perDay;
    const capped =
      perDay && loaded.integration ? { cap: perDay, integrationId: loaded.integration.id } : null;
    const daily = capped
      ? await this.slots.acquire(`daily:${capped.integrationId}`, 1, signal)
      : () => {};
    if (!daily) return this.handBack(target.id);
    try {
      if (capped && (await this.waitsForDailyWindow(loaded, target.id, capped))) {
        return 'RETRY_LATER';
      }

      // The visible call is the one step that must not be cut: a stopping worker leaves it READY.
      if (signal?.aborted) return this.handBack(target.id);
      const attemptId = randomUUID();
      const publishingRow = await repo.claimDue(
        db,
        target.id,
        'READY',
        { status: 'PUBLISHING', attemptId, heldBy: this.holder },
        new Date(this.now().getTime() + 1000),
      );
      if (!publishingRow) return 'BUSY';
      return await this.finalize(loaded, network, publishing, {
        row: publishingRow,
        request,
        attemptId,
      });
    } finally {
      daily();
    }
  }

  /**
   * Whether the account has published `cap` posts in the last 24 hours: the target then stays
   * READY, saying why, and its job comes back once the oldest of them leaves the window.
   */
  private async waitsForDailyWindow(
    loaded: Loaded,
    targetId: string,
    { cap, integrationId }: { cap: number; integrationId: string },
  ): Promise<boolean> {
    const { db } = this.deps;
    const since = new Date(this.now().getTime() - 24 * 3600_000);
    const recent = await repo.publishedSince(db, integrationId, since);
    if (recent.length < cap) return false;
    const frees = (recent[0]?.publishedAt?.getTime() ?? this.now().getTime()) + 24 * 3600_000;
    await repo.transition(db, targetId, ['READY'], 'READY', {
      error: `${loaded.platformName} allows ${cap} posts a day for this account; Herald will publish this one when the window allows.`,
    });
    await this.deps.queue.retryAt(targetId, new Date(frees + 1000));
    return true;
  }

  /**
   * A QUEUED target whose preparing calls nothing at the network (`preparesLocally`: a text post
   * on X) is prepared in memory and claimed straight into PUBLISHING with that state, attempt
   * and attempt id, in one guarded step instead of QUEUED → PREPARING → READY → PUBLISHING. Null
   * when it does not apply (it may call the network, the network caps posts a day, or the
   * in-memory preparing says anything but ready): the steps run as usual then, and
   * `publishReady` counts the day's posts with the visible call.
   */
  private async claimPreparedLocally(
    loaded: Loaded,
    network: NetworkRuntime,
    publishing: PublishingAdapter,
    request: PublishRequest,
  ): Promise<Claimed | 'BUSY' | null> {
    if (!publishing.preparesLocally?.(request) || capsOf(network.slug).perDay) return null;
    let state: PublishState;
    try {
      const account = this.accountOf(loaded);
      const prepared = await publishing.prepare(account, request);
      const checked = await publishing.check(account, prepared, request);
      if (checked.status !== 'ready') return null;
      state = { ...prepared, ...checked.state };
    } catch {
      // The usual steps meet the same refusal and record it.
      return null;
    }
    const attemptId = randomUUID();
    const row = await repo.claimPublishing(
      this.deps.db,
      loaded.target.id,
      {
        attempts: loaded.target.attempts + 1,
        attemptId,
        publishState: state,
        heldBy: this.holder,
      },
      new Date(this.now().getTime() + 1000),
    );
    if (!row) return 'BUSY';
    // The target is PUBLISHING with nothing sent: a failure here must not leave it so (the
    // watchdog would find nothing at the network and ask for a check). The post's status is
    // settled from its targets once the outcome is known anyway.
    await repo.markPostPublishing(this.deps.db, row.postId).catch((err: unknown) => {
      this.deps.log.warn({ err, targetId: row.id }, 'could not mark the post publishing');
    });
    return { row, request, attemptId };
  }

  /** The one visible call, for the attempt that holds the target in PUBLISHING. */
  private async finalize(
    loaded: Loaded,
    network: NetworkRuntime,
    publishing: PublishingAdapter,
    { row, request, attemptId }: Claimed,
  ): Promise<RunOutcome> {
    // From here on the target is the row as claimed: its state is what a look-up after an
    // unknown outcome needs (the row read at the start may predate the preparing).
    const held: Loaded = { ...loaded, target: row };
    const access: Access = { row: loaded.integration!, account: this.accountOf(loaded) };
    let result: PublishResult;
    const state = row.publishState;
    try {
      // A refused token (401, `reauth`) is refused before the network does anything with the
      // request: no post was made, so finalizing again once with fresh tokens cannot duplicate
      // it. Every other error keeps the rules below (an unknown outcome is looked up first).
      result = await this.withRefresh(network, access, (a) =>
        publishing.finalize(a, request, state),
      );
    } catch (err) {
      return this.handleFinalizeError(held, publishing, access.account, request, attemptId, err);
    }
    return this.markPublished(held, attemptId, result);
  }

  /**
   * For the watchdog: a target left PUBLISHING by a worker that is gone. Asks the network
   * (`reconcile`) before anyone is told to check by hand: found → PUBLISHED with its id and
   * link; LATER while the network says it cannot tell yet (TikTok still processing), for up to
   * an hour; UNKNOWN otherwise. "Not among the recent posts" is no proof here, unlike after a
   * timeout the publisher itself waited out: the dead worker's call may still be queued at the
   * network and land after the look-up, and a busy account may have posted past the window
   * the look-up reads (the fault test saw both), so sending it again could post it twice.
   */
  async reconcileStuck(targetId: string, attemptId: string | null): Promise<StuckOutcome> {
    const loaded = await repo.loadTarget(this.deps.db, targetId);
    if (!loaded || loaded.target.status !== 'PUBLISHING') return 'BUSY';
    if (!attemptId || loaded.target.attemptId !== attemptId) return 'BUSY';
    const network = this.deps.networks.get(platformSlug(loaded.platformName));
    const publishing = network?.adapter.publishing;
    if (!network || !publishing?.reconcile || !loaded.integration) return 'UNKNOWN';
    const reconcile = publishing.reconcile.bind(publishing);
    let found: PublishResult | null;
    try {
      const request = await this.requestFor(loaded);
      const access: Access = { row: loaded.integration, account: this.accountOf(loaded) };
      found = await this.withRefresh(network, access, (a) =>
        reconcile(a, request, loaded.target.publishState),
      );
    } catch (err) {
      const stuckFor = this.now().getTime() - loaded.target.updatedAt.getTime();
      if (err instanceof PlatformError && err.kind === 'unknown_outcome' && stuckFor < 3600_000) {
        return 'LATER';
      }
      this.deps.log.warn({ err, targetId }, 'could not reconcile a stuck publication');
      return 'UNKNOWN';
    }
    if (found) {
      // Uploaded ahead counts as found: the network publishes it at its time.
      const marked = await this.markPublished(loaded, attemptId, found);
      if (marked !== 'PUBLISHED' && marked !== 'UPLOADED') return 'BUSY';
      // Its parts and first comment follow in a run of their own.
      if (await hasQueuedFollowUps(this.deps.db, targetId)) {
        await this.deps.queue.retryAt(targetId, this.now());
      }
      return 'PUBLISHED';
    }
    return 'UNKNOWN';
  }

  private async markPublished(loaded: Loaded, attemptId: string, result: PublishResult) {
    const now = this.now();
    // Made ahead of its time: the network publishes it then (YouTube's status.publishAt).
    const publishAt = result.extra?.publishAt;
    if (typeof publishAt === 'string' && Date.parse(publishAt) > now.getTime())
      return this.markUploaded(loaded, attemptId, result, publishAt);
    const due = loaded.target.dueAt ?? loaded.post.scheduledAt;
    const row = await repo.markTargetPublished(this.deps.db, loaded.target.id, attemptId, {
      externalId: result.externalId,
      // Shown as a link on the post: only a web address the network gave is kept.
      permalink: webUrlOrNull(result.permalink),
      embed: result.extra ?? null,
      publishedAt: now,
      latenessMs: due ? Math.max(0, now.getTime() - due.getTime()) : null,
    });
    if (!row) return 'BUSY';
    await this.settle(loaded, row, 'PUBLISHED', null);
    await this.deps.onPublished?.(loaded.target.id, now).catch((err: unknown) => {
      this.deps.log.warn({ err, targetId: loaded.target.id }, 'after-publish hook failed');
    });
    return 'PUBLISHED';
  }

  /**
   * PUBLISHING → UPLOADED: the video is at the network, which publishes it at `publishAt`; the
   * target holds its id and waits for the post's time (its job comes back then), or for now
   * when the post is no longer one to wait for (Publish now turned the choice off).
   */
  private async markUploaded(
    loaded: Loaded,
    attemptId: string,
    result: PublishResult,
    publishAt: string,
  ): Promise<RunOutcome> {
    const { target, post } = loaded;
    const now = this.now();
    const dueAt =
      youtubeUploadsAhead(target.settings) && post.scheduledAt && post.scheduledAt > now
        ? post.scheduledAt
        : now;
    const row = await repo.transition(
      this.deps.db,
      target.id,
      ['PUBLISHING'],
      'UPLOADED',
      {
        externalId: result.externalId,
        permalink: webUrlOrNull(result.permalink),
        embed: result.extra ?? null,
        error: null,
        dueAt,
        publishState: {
          ...target.publishState,
          uploadedAhead: { fingerprint: uploadFingerprint(loaded), publishAt },
        },
      },
      attemptId,
    );
    if (!row) return 'BUSY';
    await this.deps.queue.retryAt(target.id, dueAt);
    // The post waits for its time again (it read publishing while the upload ran).
    await repo.settlePostStatus(this.deps.db, post.id, now);
    return 'UPLOADED';
  }

  private async handleFinalizeError(
    loaded: Loaded,
    publishing: PublishingAdapter,
    account: StoredAccount,
    request: PublishRequest,
    attemptId: string,
    err: unknown,
  ): Promise<RunOutcome> {
    const { db } = this.deps;
    const id = loaded.target.id;
    // Adapters answer `unknown_outcome` when the visible call may have gone through; any other
    // kind means the network did nothing visible (types.ts, PublishingAdapter.finalize).
    const certainNothingHappened = err instanceof PlatformError && err.kind !== 'unknown_outcome';
    if (certainNothingHappened) {
      const platformErr = err as PlatformError;
      if (platformErr.kind === 'transient') {
        if (loaded.target.attempts >= MAX_ATTEMPTS) {
          return this.failFrom(
            loaded,
            ['PUBLISHING'],
            `${loaded.platformName} kept failing: ${platformErr.message}`,
            attemptId,
          );
        }
        await repo.transition(
          db,
          id,
          ['PUBLISHING'],
          'READY',
          { error: platformErr.message, attempts: loaded.target.attempts + 1 },
          attemptId,
        );
        await this.deps.queue.retryAt(
          id,
          new Date(this.now().getTime() + backoffMs(loaded.target.attempts + 1)),
        );
        return 'RETRY_LATER';
      }
      if (platformErr.kind === 'rate_limited') {
        const named = platformErr.details.retryAfterSeconds !== undefined;
        // Only the guessed waits count as tries: a network that names its wait is obeyed.
        const attempts = named ? loaded.target.attempts : loaded.target.attempts + 1;
        if (!named && attempts >= MAX_RATE_LIMITED_ATTEMPTS) {
          return this.failFrom(
            loaded,
            ['PUBLISHING'],
            this.gaveUpOnRateLimit(loaded, platformErr, attempts),
            attemptId,
          );
        }
        await repo.transition(
          db,
          id,
          ['PUBLISHING'],
          'READY',
          { error: platformErr.message, attempts },
          attemptId,
        );
        await this.deps.queue.retryAt(id, this.retryTime(platformErr, attempts));
        return 'RETRY_LATER';
      }
      const message =
        platformErr.kind === 'reauth'
          ? `${loaded.platformName} refused the account's access: ${platformErr.message} Reconnect the account in Settings, then publish again.`
          : platformErr.message;
      return this.failFrom(loaded, ['PUBLISHING'], message, attemptId);
    }
    // The network may or may not have published it: look before doing anything else.
    const reason = err instanceof Error ? err.message : String(err);
    if (publishing.reconcile) {
      try {
        const found = await publishing.reconcile(account, request, loaded.target.publishState);
        if (found) return this.markPublished(loaded, attemptId, found);
        if (loaded.target.attempts < MAX_ATTEMPTS) {
          await repo.transition(db, id, ['PUBLISHING'], 'READY', { error: reason }, attemptId);
          await this.deps.queue.retryAt(
            id,
            new Date(this.now().getTime() + backoffMs(loaded.target.attempts)),
          );
          return 'RETRY_LATER';
        }
      } catch (lookupErr) {
        this.deps.log.warn({ err: lookupErr, targetId: id }, 'could not reconcile a publication');
      }
    }
    const message = `Herald could not confirm whether ${loaded.platformName} published this post (${reason}). Check ${loaded.platformName}, then mark it as published or retry.`;
    const row = await repo.transition(
      db,
      id,
      ['PUBLISHING'],
      'UNCERTAIN',
      { error: message },
      attemptId,
    );
    if (row) await this.settle(loaded, row, 'UNCERTAIN', message);
    return 'UNCERTAIN';
  }

  /** When to try again after a rate limit: the network's own wait, else the backoff. */
  private retryTime(err: PlatformError, attempt: number) {
    const seconds = err.details.retryAfterSeconds;
    const ms = seconds !== undefined ? seconds * 1000 : rateLimitBackoffMs(attempt);
    return new Date(this.now().getTime() + ms);
  }

  private gaveUpOnRateLimit(loaded: Loaded, err: PlatformError, attempts: number) {
    return rateLimitGiveUpMessage(loaded.platformName, err.message, attempts);
  }

  private async handleBeforeFinalize(
    loaded: Loaded,
    from: 'PREPARING',
    err: unknown,
    state: PublishState,
  ): Promise<RunOutcome> {
    const { db } = this.deps;
    const id = loaded.target.id;
    const kind = err instanceof PlatformError ? err.kind : 'transient';
    // Not the network's words (a bug, the database): the details go to the log, not to the user.
    const message =
      err instanceof PlatformError
        ? err.message
        : `Herald failed while preparing this post for ${loaded.platformName}; the error is in the server's log.`;
    if (!(err instanceof PlatformError))
      this.deps.log.error({ err, targetId: id }, 'preparing a publication failed unexpectedly');
    if (err instanceof UnreadableTokensError) return this.failUnreadable(loaded, err, [from]);
    if (kind === 'bad_request') return this.failFrom(loaded, [from], message);
    if (kind === 'reauth') {
      return this.failFrom(
        loaded,
        [from],
        `${loaded.platformName} refused the account's access: ${message} Reconnect the account in Settings, then publish again.`,
      );
    }
    const attempts = loaded.target.attempts + 1;
    if (kind !== 'rate_limited' && attempts >= MAX_ATTEMPTS) {
      return this.failFrom(loaded, [from], `${loaded.platformName} kept failing: ${message}`);
    }
    const rateLimit = kind === 'rate_limited' && err instanceof PlatformError ? err : null;
    if (
      rateLimit &&
      rateLimit.details.retryAfterSeconds === undefined &&
      attempts >= MAX_RATE_LIMITED_ATTEMPTS
    ) {
      return this.failFrom(loaded, [from], this.gaveUpOnRateLimit(loaded, rateLimit, attempts));
    }
    await repo.transition(db, id, [from], 'QUEUED', { error: message, publishState: state });
    const at = rateLimit
      ? this.retryTime(rateLimit, attempts)
      : new Date(this.now().getTime() + backoffMs(attempts));
    await this.deps.queue.retryAt(id, at);
    this.deps.log.warn(
      { targetId: id, platform: loaded.platformName, kind, attempts, reason: message },
      'preparing a publication failed; it is tried again later',
    );
    return 'RETRY_LATER';
  }

  /**
   * Tries once more after refreshing the tokens when the network says they no longer work, from
   * the account as it is once its refresh lock is taken: when another refresher (the job, the
   * Refresh button, another publication) already rotated them, their tokens are used as they are.
   * `access` follows the account's latest tokens through the phases of one run.
   */
  private async withRefresh<T>(
    network: NetworkRuntime,
    access: Access,
    call: (account: StoredAccount) => Promise<T>,
  ): Promise<T> {
    try {
      return await call(access.account);
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind !== 'reauth' || !network.adapter.refresh) {
        throw err;
      }
      const refreshed = await refreshAccount(this.deps, network, access.row).catch(
        (refreshErr: unknown) => {
          // Nothing was published (the call was refused): the run must not read a failed
          // refresh as an unknown outcome.
          if (refreshErr instanceof PlatformError) throw refreshErr;
          throw new PlatformError(
            'reauth',
            refreshErr instanceof Error ? refreshErr.message : String(refreshErr),
          );
        },
      );
      access.row = refreshed;
      access.account = toStoredAccount(this.deps.cipher, refreshed);
      return call(access.account);
    }
  }

  private async waitUntilReady(
    publishing: PublishingAdapter,
    withAccess: <T>(call: (account: StoredAccount) => Promise<T>) => Promise<T>,
    initial: PublishState,
    request: PublishRequest,
    signal?: AbortSignal,
  ): Promise<
    { done: true; state: PublishState } | { done: false; state: PublishState; retryAfterMs: number }
  > {
    let state = initial;
    const deadline = Date.now() + (this.deps.checkBudgetMs ?? 60_000);
    for (;;) {
      if (signal?.aborted) return { done: false, state, retryAfterMs: 0 };
      const current = state;
      const result = await withAccess((a) => publishing.check(a, current, request));
      if (result.state) state = { ...state, ...result.state };
      if (result.status === 'ready') return { done: true, state };
      if (Date.now() + result.retryAfterMs > deadline) {
        return { done: false, state, retryAfterMs: result.retryAfterMs };
      }
      await wait(result.retryAfterMs, signal);
    }
  }

  /**
   * The account with its tokens decrypted, once per row read (a run asks for it at each step; a
   * refresh brings a new row, hence new tokens).
   */
  private accountOf(loaded: Loaded): StoredAccount {
    const row = loaded.integration!;
    let account = this.accounts.get(row);
    if (!account) {
      account = toStoredAccount(this.deps.cipher, row);
      this.accounts.set(row, account);
    }
    return account;
  }

  /**
   * The account's text as it goes out: UTM parameters added (docs/product.md#link-tracking, never
   * stored), then, when the post has short links, each link replaced by the target's own short
   * link (docs/analytics.md#short-links), the same on every run of the target.
   */
  private async sentText(loaded: Loaded): Promise<string> {
    const text = applyLinkTracking(
      contentForAccount(contentOf(loaded.post), loaded.target),
      loaded.post.linkTracking,
      loaded.platformName,
    );
    const base = this.deps.shortLinkBase;
    const { organizationId, id: postId } = loaded.post;
    // A text without links has nothing to shorten: the organization's setting is not read.
    let links = 0;
    replaceLinks(text, (url) => (links++, url));
    if (!base || links === 0) return text;
    const shortens = await targetShortensLinks(
      this.deps.db,
      { organizationId, targetId: loaded.target.id, attempts: loaded.target.attempts },
      loaded.post.shortLinks,
    );
    if (!shortens) return text;
    return shortenLinks(
      this.deps.db,
      { organizationId, postId, targetId: loaded.target.id },
      text,
      base,
    );
  }

  private async requestFor(loaded: Loaded): Promise<PublishRequest> {
    const media = loaded.media.filter((m) => mediaGoesTo(m.platformIds, loaded.target));
    return {
      text: await this.sentText(loaded),
      idempotencyKey: loaded.target.id,
      settings: loaded.target.settings,
      scheduledAt: loaded.post.scheduledAt,
      media: media.map((m) => ({
        kind: m.kind,
        mimeType: m.mimeType,
        // Long enough for a network to fetch a large video at its own pace.
        url: this.deps.media.signedUrl(m.storageKey, 6 * 3600),
        fileName: m.fileName,
        size: m.size,
        width: m.width,
        height: m.height,
        durationSec: m.durationSec,
        altText: m.altText,
        open: async (range) =>
          (await this.deps.media.open(m.storageKey, range)).stream as NodeJS.ReadableStream,
      })),
    };
  }

  private fail(loaded: Loaded, from: repo.TargetStatus, message: string) {
    return this.failFrom(loaded, [from], message);
  }

  /**
   * A target whose account's tokens this server cannot read: FAILED with the reason, and the
   * account marked for a reconnect (the next publications fail at once, and Settings says why).
   * Only from a state no other run holds: a target in PREPARING or PUBLISHING is theirs.
   */
  private async failUnreadable(
    loaded: Loaded,
    err: UnreadableTokensError,
    from: repo.TargetStatus[] = (['QUEUED', 'READY'] as const).filter(
      (s) => s === loaded.target.status,
    ),
  ): Promise<RunOutcome> {
    if (from.length === 0) return 'BUSY';
    if (loaded.integration)
      await markTokensUnreadable(this.deps.db, loaded.integration, err).catch((markErr: unknown) =>
        this.deps.log.warn(
          { err: markErr, integrationId: loaded.integration?.id },
          'could not mark an account whose tokens cannot be read',
        ),
      );
    return this.failFrom(
      loaded,
      from,
      `${accountOfTarget(loaded)} needs to be reconnected: Herald cannot read its stored access (it was encrypted with a key this server does not have). Reconnect it in Settings, then publish again.`,
    );
  }

  private async failFrom(
    loaded: Loaded,
    from: repo.TargetStatus[],
    message: string,
    attemptId?: string,
  ): Promise<RunOutcome> {
    const row = await repo.transition(
      this.deps.db,
      loaded.target.id,
      from,
      'FAILED',
      { error: message },
      attemptId,
    );
    if (!row) return 'BUSY';
    this.deps.log.warn(
      { targetId: row.id, platform: loaded.platformName, reason: message },
      'publication failed',
    );
    await this.settle(loaded, row, 'FAILED', message);
    return 'FAILED';
  }

  /** The post's status after `row` (the target as this run moved it) reached `outcome`. */
  private async settle(
    loaded: Loaded,
    row: repo.TargetRow,
    outcome: 'PUBLISHED' | 'FAILED' | 'UNCERTAIN',
    error: string | null,
  ) {
    recordPublication(loaded.platformName, outcome, row.latenessMs);
    const now = this.now();
    const alone = loaded.targetCount === 1 && (await repo.settleOnlyTarget(this.deps.db, row, now));
    if (!alone) await repo.settlePostStatus(this.deps.db, loaded.post.id, now);
    const { post, target, integration } = loaded;
    await announceOutcome(this.deps.db, {
      organizationId: post.organizationId,
      postId: post.id,
      targetId: target.id,
      authorId: post.createdByUserId,
      platformName: loaded.platformName,
      outcome,
      error,
      targetCount: loaded.targetCount,
      now,
      // Named from what the run read: no second read of the post and its account.
      described: describeOutcome(loaded.platformName, post, {
        username: integration?.username ?? target.accountUsername,
        name: integration?.name ?? target.accountName,
      }),
    }).catch((err: unknown) =>
      this.deps.log.error({ err }, 'could not record a publishing notification'),
    );
  }
}
