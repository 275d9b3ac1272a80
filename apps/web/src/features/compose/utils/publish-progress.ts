import type { PlatformPost, Post } from '@herald/contract';

/** Where one account of a post being published now stands (docs/product.md#publish-now-progress). */
export type ProgressState =
  | { kind: 'publishing' }
  | { kind: 'published'; permalink: string | null; inbox: boolean }
  | { kind: 'failed'; reason: string; todo: string }
  | { kind: 'uncertain'; reason: string; todo: string }
  /** A try failed for a passing reason (a rate limit, a daily cap): the engine tries again by itself. */
  | { kind: 'retrying'; reason: string; todo: string };

export interface ProgressRow {
  id: string;
  network: string;
  /** "Name (@handle)", or whichever of the two is known; null when neither is. */
  account: string | null;
  state: ProgressState;
}

export interface Progress {
  rows: ProgressRow[];
  published: number;
  /** Failed or uncertain: the accounts the member has something to do about. */
  problems: number;
  /** Waiting to be tried again later by the engine, nothing for the member to do now. */
  later: number;
  /** Every account is published, failed, uncertain or waiting for a later try. */
  settled: boolean;
}

const FAILED_TODO = 'Fix what it says, then open the post and publish to this account again.';

function accountOf(target: PlatformPost): string | null {
  const handle = target.accountUsername ? `@${target.accountUsername}` : null;
  const name = target.accountName;
  if (name && handle && name !== target.accountUsername) return `${name} (${handle})`;
  return name ?? handle;
}

function stateOf(target: PlatformPost): ProgressState {
  switch (target.status) {
    case 'PUBLISHED':
      return {
        kind: 'published',
        permalink: target.permalink,
        inbox: target.tiktok?.mode === 'inbox',
      };
    case 'FAILED':
      return {
        kind: 'failed',
        reason: target.error?.trim() || 'Publishing failed for a reason the network did not give.',
        todo: FAILED_TODO,
      };
    case 'UNCERTAIN':
      return {
        kind: 'uncertain',
        reason:
          target.error?.trim() ||
          `Herald could not confirm whether ${target.platformName} published it.`,
        todo: `Check ${target.platformName}, then open the post to mark it as published or retry.`,
      };
    case 'QUEUED':
      // A publication queued again with the reason of its last try waits for a later one (the
      // dialog would otherwise say "Publishing…" for as long as a daily cap lasts).
      if (target.error?.trim())
        return {
          kind: 'retrying',
          reason: target.error.trim(),
          todo: 'Herald tries again by itself; the post shows when it went out.',
        };
      return { kind: 'publishing' };
    case 'UPLOADED':
      // The video is on YouTube, private until its time: Publish now makes it public. When that
      // was refused, the network still publishes it at its time, and the dialog says so.
      if (target.error?.trim())
        return {
          kind: 'retrying',
          reason: target.error.trim(),
          todo: `${target.platformName} still publishes it at its scheduled time; the post shows when it went out.`,
        };
      return { kind: 'publishing' };
    default:
      // PREPARING, READY, PUBLISHING: the engine is on it.
      return { kind: 'publishing' };
  }
}

/** Each account of the post as it stands now, and the tally. */
export function progressOf(post: Post): Progress {
  const rows = post.platformPosts.map((target) => ({
    id: target.id,
    network: target.platformName,
    account: accountOf(target),
    state: stateOf(target),
  }));
  const published = rows.filter((r) => r.state.kind === 'published').length;
  const problems = rows.filter(
    (r) => r.state.kind === 'failed' || r.state.kind === 'uncertain',
  ).length;
  const later = rows.filter((r) => r.state.kind === 'retrying').length;
  return {
    rows,
    published,
    problems,
    later,
    settled: rows.length > 0 && published + problems + later === rows.length,
  };
}

function accounts(n: number) {
  return n === 1 ? '1 account' : `${n} accounts`;
}

/** The one sentence a settled Publish now ends with: "Published to 6 of 7 accounts." */
export function summaryOf(progress: Progress): {
  tone: 'success' | 'partial' | 'error';
  text: string;
} {
  const total = progress.rows.length;
  if (progress.later > 0) {
    const retry = `${accounts(progress.later)} will be tried again later`;
    const attention = progress.problems
      ? `, ${accounts(progress.problems)} need${progress.problems === 1 ? 's' : ''} attention`
      : '';
    return {
      tone: progress.problems ? 'partial' : 'success',
      text: `Published to ${progress.published} of ${total} accounts; ${retry}${attention}: see the list.`,
    };
  }
  if (progress.published === total) {
    return {
      tone: 'success',
      text: total === 1 ? 'Published to 1 account.' : `Published to all ${total} accounts.`,
    };
  }
  if (progress.published === 0) {
    return {
      tone: 'error',
      text: `Not published: ${total === 1 ? 'the account' : `all ${total} accounts`} need${total === 1 ? 's' : ''} attention. See why in the list.`,
    };
  }
  return {
    tone: 'partial',
    text: `Published to ${progress.published} of ${total} accounts. ${accounts(progress.problems)} need${progress.problems === 1 ? 's' : ''} attention: see why in the list.`,
  };
}

/** What the list says while it runs: "3 of 7 published so far…". */
export function runningLineOf(progress: Progress): string {
  const total = progress.rows.length;
  const done = progress.published + progress.problems + progress.later;
  return `${done} of ${total} done${progress.problems ? `, ${progress.problems} with a problem` : ''}…`;
}
