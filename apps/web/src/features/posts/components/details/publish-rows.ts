import type { FollowUp, PlatformPost, Post, PublishNowResponse } from '@herald/contract';
import { isPublished } from '../post-status';

export const NO_SELECTION = 'Please select at least one platform to publish.';
export const NO_PLATFORMS_CONNECTED =
  'No platforms connected. Please connect platforms in your organization settings to publish posts.';
export const PUBLISH_FAILED = 'Publishing failed';
export const UNKNOWN_PUBLISH_ERROR = 'Unknown publishing error';
export const PUBLISH_REQUEST_FAILED = 'Publishing failed for an unknown reason.';
export const PUBLISH_FAILED_EVERYWHERE = 'Failed to publish to any platform.';

/** What the last Publish Now answered for one network. */
export interface PublishOutcome {
  status: 'success' | 'failed' | 'pending';
  error: string | null;
}

/** Where one network of the post stands (docs/product.md#publish-states). */
export type RowState =
  /** On the network: the row is locked. */
  /** `inbox`: a TikTok draft sent to the creator's inbox, finished in the TikTok app. */
  | { kind: 'published'; permalink: string | null; inbox?: boolean }
  /** PENDING: 'Publishing...' (the request runs, or the engine works on it). */
  | { kind: 'publishing' }
  /** Waiting for its time: 'Queued for {time}', no spinner. */
  | { kind: 'queued'; dueAt: string }
  /**
   * Uploaded ahead: the network has it and publishes it itself at `dueAt` ("Uploaded — YouTube
   * publishes it at {time}"); `error`: what Herald could not do about it since.
   */
  | { kind: 'uploaded'; dueAt: string; error: string | null }
  | { kind: 'failed'; error: string; targetId: string | null }
  /** The network may or may not have it: the user checks and says. */
  | { kind: 'uncertain'; error: string | null; targetId: string }
  /** Nothing happened yet. */
  | { kind: 'idle' };

export interface PublishRow {
  /** A key for the row: the target's id, else the network's. */
  id: string;
  platform: { id: string; name: string };
  /**
   * What Publish Now names and its answer is keyed by: the network's name, or "Network (account)"
   * when the post goes to several accounts of that network.
   */
  label: string;
  /** The account it goes out from (null when the post has no target there yet). */
  account: { name: string | null; username: string | null; pictureUrl: string | null } | null;
  state: RowState;
  /** Whether the organization has a connected account there; null while unknown. */
  connected: boolean | null;
  /** Whether it can be chosen for Publish Now. */
  selectable: boolean;
  /** The publication's id and its thread parts and first comment, once it has a target. */
  targetId?: string;
  followUps?: FollowUp[];
}

const key = (name: string) => name.trim().toLowerCase();

/**
 * docs/product.md#publish-states: each network by its own target, never by the post's status
 * (a post published now to one network leaves the others queued for their time).
 */
function targetState(target: PlatformPost | undefined, now: number): RowState {
  switch (target?.status) {
    case undefined:
      return { kind: 'idle' };
    case 'PUBLISHED':
      return {
        kind: 'published',
        permalink: target.permalink,
        ...(target.tiktok?.mode === 'inbox' ? { inbox: true } : {}),
      };
    case 'PREPARING':
    case 'READY':
    case 'PUBLISHING':
      return { kind: 'publishing' };
    case 'QUEUED':
      // Due later: queued for its time. Due already: the engine is on it. No time: a draft's.
      if (!target.dueAt) return { kind: 'idle' };
      if (Date.parse(target.dueAt) > now) return { kind: 'queued', dueAt: target.dueAt };
      return { kind: 'publishing' };
    case 'UPLOADED':
      // Its time come, the engine marks it published: until then it reads as going out.
      if (!target.dueAt || Date.parse(target.dueAt) <= now) return { kind: 'publishing' };
      return { kind: 'uploaded', dueAt: target.dueAt, error: target.error?.trim() || null };
    case 'FAILED':
      return { kind: 'failed', error: target.error?.trim() || PUBLISH_FAILED, targetId: target.id };
    case 'UNCERTAIN':
      return { kind: 'uncertain', error: target.error?.trim() || null, targetId: target.id };
  }
}

function outcomeState(outcome: PublishOutcome, target: PlatformPost | undefined): RowState {
  switch (outcome.status) {
    case 'success':
      return {
        kind: 'published',
        permalink: target?.status === 'PUBLISHED' ? target.permalink : null,
        ...(target?.tiktok?.mode === 'inbox' ? { inbox: true } : {}),
      };
    case 'pending':
      return { kind: 'publishing' };
    case 'failed':
      return {
        kind: 'failed',
        error: outcome.error?.trim() || PUBLISH_FAILED,
        targetId: target?.id ?? null,
      };
  }
}

interface Entry {
  platform: { id: string; name: string };
  target: PlatformPost | undefined;
  label: string;
}

/**
 * The rows of the Publish to Platform panel, one per network of the post. A network in the
 * running request reads 'Publishing...'; else the last answer says where it stands (until the
 * post is read again); else the post's own record of it.
 */
export function publishRows({
  post,
  connectedPlatformIds,
  inFlight = [],
  outcomes = {},
  now = Date.now(),
}: {
  post: Post;
  /** The networks with a connected account; null while unknown. */
  connectedPlatformIds: ReadonlySet<string> | null;
  /** The names the running Publish Now request was sent for. */
  inFlight?: readonly string[];
  /** The last answer's results, by network name. */
  outcomes?: Readonly<Record<string, PublishOutcome>>;
  /** The reader's clock: a queued target due before it is being published. */
  now?: number;
}): PublishRow[] {
  const running = new Set(inFlight.map(key));
  const answered = new Map(Object.entries(outcomes).map(([name, outcome]) => [key(name), outcome]));
  const postIsPublished = isPublished(post.status);
  // One row per account the post goes to; a network without a target yet is one row.
  const entries = post.platforms.flatMap((platform): Entry[] => {
    const targets = post.platformPosts.filter((t) => t.platformId === platform.id);
    if (targets.length === 0) return [{ platform, target: undefined, label: platform.name }];
    return targets.map((target) => {
      const who =
        target.accountName ?? (target.accountUsername ? `@${target.accountUsername}` : null);
      const label = targets.length > 1 && who ? `${platform.name} (${who})` : platform.name;
      return { platform, target, label };
    });
  });
  return entries.map(({ platform, target, label }) => {
    const outcome = answered.get(key(label));
    const state: RowState = running.has(key(label))
      ? { kind: 'publishing' }
      : outcome
        ? outcomeState(outcome, target)
        : targetState(target, now);
    // An account disconnected since the post was written has no id any more.
    const accountGone = target !== undefined && target.integrationId === null;
    const connected = connectedPlatformIds
      ? connectedPlatformIds.has(platform.id) && !accountGone
      : null;
    const selectable =
      !postIsPublished &&
      connected !== false &&
      state.kind !== 'published' &&
      state.kind !== 'publishing';
    const account = target
      ? {
          name: target.accountName,
          username: target.accountUsername,
          pictureUrl: target.accountPictureUrl,
        }
      : null;
    return {
      id: target?.id ?? platform.id,
      platform,
      label,
      account,
      state,
      connected,
      selectable,
      ...(target ? { targetId: target.id, followUps: target.followUps ?? [] } : {}),
    };
  });
}

export type PublishToast = { tone: 'success' | 'error' | 'blank'; message: string };

/**
 * The toasts of a Publish Now answer: 'Published to: …' for what went out, 'Failed for: …
 * Check details.' beside it, the server's sentence (or 'Failed to publish to any platform.')
 * when nothing did, and a note for networks still publishing.
 */
export function publishToasts(answer: PublishNowResponse): PublishToast[] {
  const names = (status: PublishOutcome['status']) =>
    Object.entries(answer.results)
      .filter(([, result]) => result.status === status)
      .map(([name]) => name);
  const succeeded = names('success');
  const failed = names('failed');
  const pending = names('pending');
  const toasts: PublishToast[] = [];
  if (answer.status === 'failed' || succeeded.length === 0) {
    if (failed.length > 0 || pending.length === 0) {
      toasts.push({ tone: 'error', message: answer.message.trim() || PUBLISH_FAILED_EVERYWHERE });
      return toasts;
    }
  } else {
    toasts.push({ tone: 'success', message: `Published to: ${succeeded.join(', ')}` });
    if (failed.length > 0) {
      toasts.push({ tone: 'error', message: `Failed for: ${failed.join(', ')}. Check details.` });
    }
  }
  if (pending.length > 0) {
    toasts.push({
      tone: 'blank',
      message: `Still publishing to: ${pending.join(', ')}. This page updates when it is done.`,
    });
  }
  return toasts;
}

/**
 * Each chosen network's outcome from the answer. A network the answer does not mention failed
 * for a reason nobody gave (docs/product.md#publish-states: otherwise the selected platforms are marked failed).
 */
export function outcomesOf(
  answer: PublishNowResponse,
  sent: readonly string[],
): Record<string, PublishOutcome> {
  const results = new Map(Object.entries(answer.results).map(([name, r]) => [key(name), r]));
  return Object.fromEntries(
    sent.map((name) => [
      name,
      results.get(key(name)) ?? { status: 'failed' as const, error: UNKNOWN_PUBLISH_ERROR },
    ]),
  );
}
