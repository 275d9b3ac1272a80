import type { PlatformPost, Post, PublishNowResponse } from '@herald/contract';
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
  | { kind: 'published'; permalink: string | null }
  /** PENDING: 'Publishing...' (the request runs, or the engine works on it). */
  | { kind: 'publishing' }
  /** Queued for the post's scheduled time. */
  | { kind: 'scheduled' }
  | { kind: 'failed'; error: string; targetId: string | null }
  /** The network may or may not have it: the user checks and says. */
  | { kind: 'uncertain'; error: string | null; targetId: string }
  /** Nothing happened yet. */
  | { kind: 'idle' };

export interface PublishRow {
  platform: { id: string; name: string };
  state: RowState;
  /** Whether the organization has a connected account there; null while unknown. */
  connected: boolean | null;
  /** Whether it can be chosen for Publish Now. */
  selectable: boolean;
}

const key = (name: string) => name.trim().toLowerCase();

function targetState(target: PlatformPost | undefined, post: Post): RowState {
  switch (target?.status) {
    case undefined:
      return { kind: 'idle' };
    case 'PUBLISHED':
      return { kind: 'published', permalink: target.permalink };
    case 'PREPARING':
    case 'PUBLISHING':
      return { kind: 'publishing' };
    case 'QUEUED':
    case 'READY':
      // Waiting: for the engine when the post is publishing, for its time when scheduled.
      if (post.status === 'publishing') return { kind: 'publishing' };
      if (post.status === 'scheduled') return { kind: 'scheduled' };
      return { kind: 'idle' };
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
}: {
  post: Post;
  /** The networks with a connected account; null while unknown. */
  connectedPlatformIds: ReadonlySet<string> | null;
  /** The names the running Publish Now request was sent for. */
  inFlight?: readonly string[];
  /** The last answer's results, by network name. */
  outcomes?: Readonly<Record<string, PublishOutcome>>;
}): PublishRow[] {
  const running = new Set(inFlight.map(key));
  const answered = new Map(Object.entries(outcomes).map(([name, outcome]) => [key(name), outcome]));
  const postIsPublished = isPublished(post.status);
  return post.platforms.map((platform) => {
    const target = post.platformPosts.find((t) => t.platformId === platform.id);
    const outcome = answered.get(key(platform.name));
    const state: RowState = running.has(key(platform.name))
      ? { kind: 'publishing' }
      : outcome
        ? outcomeState(outcome, target)
        : targetState(target, post);
    const connected = connectedPlatformIds ? connectedPlatformIds.has(platform.id) : null;
    const selectable =
      !postIsPublished &&
      connected !== false &&
      state.kind !== 'published' &&
      state.kind !== 'publishing';
    return { platform, state, connected, selectable };
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
