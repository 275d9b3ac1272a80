import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { recordNotification } from '../notifications/notifications.service.js';
import { emitWebhookEvent } from '../outgoing-webhooks/outgoing-webhooks.events.js';
import { derivePostStatus } from './post-status.js';
import { outcomeSubject, outcomeTargets } from './targets.repository.js';

export interface Outcome {
  organizationId: string;
  postId: string;
  /** The target (one account of the post) the outcome is about. */
  targetId: string;
  authorId: string | null;
  platformName: string;
  outcome: 'PUBLISHED' | 'FAILED' | 'UNCERTAIN';
  error: string | null;
  /** The post and account as the caller already read them (else read here). */
  described?: Described;
  /** How many publications the post has, when the caller knows (1: no need to read the others). */
  targetCount?: number;
  /** The engine's clock (a target due by then is still to be worked on). */
  now?: Date;
}

interface Described {
  post: string;
  destination: string;
}

/** How a notification names the post and where it went, from rows the caller holds. */
export function describeOutcome(
  platformName: string,
  post: Parameters<typeof postLabel>[0],
  account: { username: string | null; name: string | null },
): Described {
  const known = account.username || account.name ? account : null;
  return { post: postLabel(post), destination: destinationLabel(platformName, known) };
}

const EXCERPT_LENGTH = 40;

/** How a notification names a post: its title, else the start of its text, else "Your post". */
export function postLabel(post: {
  title: string | null;
  content: string;
  contentByPlatform?: Record<string, string> | null;
}): string {
  const title = post.title?.replace(/\s+/g, ' ').trim();
  if (title) return `'${title}'`;
  const text = [post.content, ...Object.values(post.contentByPlatform ?? {})]
    .map((t) => (t ?? '').replace(/\s+/g, ' ').trim())
    .find(Boolean);
  if (!text) return 'Your post';
  const chars = [...text];
  if (chars.length <= EXCERPT_LENGTH) return `'${text}'`;
  return `'${chars.slice(0, EXCERPT_LENGTH).join('').trimEnd()}…'`;
}

/** "X (@acme_x)", "Facebook (Acme Page)", or just the network when the account is unknown. */
export function destinationLabel(
  platformName: string,
  account: { username: string | null; name: string | null } | null,
): string {
  const username = account?.username?.trim().replace(/^@/, '');
  const who = username ? `@${username}` : account?.name?.trim();
  return who ? `${platformName} (${who})` : platformName;
}

/** The post and the account the target went to, for the message. */
async function describeTarget(db: Db, o: Outcome) {
  const row = await outcomeSubject(db, o.organizationId, o.postId, o.targetId);
  const post = row ? postLabel(row) : 'Your post';
  const username = row?.username ?? row?.keptUsername ?? null;
  const name = row?.name ?? row?.keptName ?? null;
  const account = username || name ? { username, name } : null;
  return { post, destination: destinationLabel(o.platformName, account) };
}

/**
 * The sentence a member reads: which post, which network and account, and what went wrong.
 * "'Winter latte launch' was published to X (@acme_x)."
 */
export function outcomeMessage(
  o: Pick<Outcome, 'outcome' | 'error'>,
  post: string,
  destination: string,
): string {
  if (o.outcome === 'PUBLISHED') return `${post} was published to ${destination}.`;
  if (o.outcome === 'UNCERTAIN') {
    return `${post} may not have been published to ${destination}: ${o.error ?? 'Herald could not confirm the publication.'}`;
  }
  return `${post} could not be published to ${destination}: ${o.error ?? 'Publishing failed for an unknown reason.'}`;
}

type OutcomeTarget = Awaited<ReturnType<typeof outcomeTargets>>[number];

const SETTLED = new Set(['PUBLISHED', 'FAILED', 'UNCERTAIN']);

/** "Instagram (@acme.cafe) failed: The image is too small." */
function problemOf(t: OutcomeTarget, destination: string) {
  if (t.status === 'UNCERTAIN')
    return `${destination} may not have it: ${t.error ?? 'Herald could not confirm the publication.'}`;
  return `${destination} failed: ${t.error ?? 'Publishing failed for an unknown reason.'}`;
}

const accounts = (n: number) => (n === 1 ? '1 account' : `${n} accounts`);

/**
 * One sentence for the whole post once none of its publications is being worked on: how many
 * accounts it reached, and each one that failed with its reason. "'Winter latte' was published
 * to 6 of 7 accounts; Instagram (@acme.cafe) failed: The image is too small."
 */
export function summaryMessage(post: string, targets: OutcomeTarget[]): string {
  const named = targets.map((t) => {
    const username = t.username ?? t.keptUsername;
    const name = t.name ?? t.keptName;
    return {
      t,
      destination: destinationLabel(t.platformName, username || name ? { username, name } : null),
    };
  });
  const published = named.filter(({ t }) => t.status === 'PUBLISHED').length;
  const problems = named
    .filter(({ t }) => t.status === 'FAILED' || t.status === 'UNCERTAIN')
    .map(({ t, destination }) => problemOf(t, destination));
  const waiting = named.filter(({ t }) => !SETTLED.has(t.status)).length;
  const total = targets.length;
  if (published === total) return `${post} was published to all ${accounts(total)}.`;
  let sentence =
    published > 0
      ? `${post} was published to ${published} of ${accounts(total)}`
      : `${post} could not be published to any of its ${accounts(total)}`;
  if (problems.length > 0) sentence += `; ${problems.join('; ')}`;
  if (!sentence.endsWith('.')) sentence += '.';
  if (waiting === 0) return sentence;
  return `${sentence} ${waiting === 1 ? '1 waits for its time.' : `${waiting} wait for their time.`}`;
}

/** Which state of the post's publications a notice sums up: each one's status as last settled. */
function outcomeKeyOf(targets: OutcomeTarget[]) {
  const state = targets.map((t) => `${t.id}:${t.status}:${t.updatedAt.getTime()}`).join('|');
  return createHash('sha256').update(state).digest('hex').slice(0, 32);
}

/**
 * Tells the post's author and the organization's admins how the post went: one notice per
 * outcome of the post, once none of its publications is being worked on, summing up every
 * account (a post to 7 accounts makes one notice, not 7). A later outcome (a retry that
 * settles) is a notice of its own; one with nothing failed resolves the earlier failure notices.
 */
export async function announceOutcome(db: Db, o: Outcome) {
  const to = { admins: true, userIds: o.authorId ? [o.authorId] : [] };
  if (o.targetCount !== 1) {
    const targets = await outcomeTargets(db, o.organizationId, o.postId);
    if (targets.length > 1) {
      if (derivePostStatus(targets, o.now ?? new Date()).status === 'publishing') return;
      const failed = targets.some((t) => t.status === 'FAILED' || t.status === 'UNCERTAIN');
      const recorded = await recordNotification(db, o.organizationId, to, {
        type: failed ? 'POST_FAILED' : 'POST_PUBLISHED',
        priority: failed ? 'HIGH' : 'LOW',
        message: summaryMessage(postLabel(targets[0]!), targets),
        postId: o.postId,
        outcomeKey: outcomeKeyOf(targets),
        resolvesFailures: !failed,
      });
      // Once per outcome, like the notice: several runs settling the post together announce it once.
      if (recorded)
        await emitWebhookEvent(
          db,
          o.organizationId,
          webhookEventOf(targets.map((t) => t.status)),
          {
            postId: o.postId,
            targets: targets.map((t) => ({
              targetId: t.id,
              platform: t.platformName,
              status: t.status,
              error: t.error,
            })),
          },
          o.now,
        );
      return;
    }
  }
  const { post, destination } = o.described ?? (await describeTarget(db, o));
  const published = o.outcome === 'PUBLISHED';
  await recordNotification(db, o.organizationId, to, {
    type: published ? 'POST_PUBLISHED' : 'POST_FAILED',
    priority: published ? 'LOW' : 'HIGH',
    message: outcomeMessage(o, post, destination),
    postId: o.postId,
    resolvesFailures: published,
  });
  await emitWebhookEvent(
    db,
    o.organizationId,
    webhookEventOf([o.outcome]),
    {
      postId: o.postId,
      targets: [
        { targetId: o.targetId, platform: o.platformName, status: o.outcome, error: o.error },
      ],
    },
    o.now,
  );
}

/**
 * The webhook event of a post whose publications are all settled: one Herald could not confirm
 * needs a person's check first; then all, some or none out.
 */
function webhookEventOf(statuses: string[]) {
  if (statuses.includes('UNCERTAIN')) return 'post.needs_check' as const;
  const published = statuses.filter((s) => s === 'PUBLISHED').length;
  if (published === statuses.length) return 'post.published' as const;
  return published > 0 ? ('post.partially_published' as const) : ('post.failed' as const);
}

/**
 * A part or first comment that failed or needs a check once its post was out: the author and
 * the admins are told which one and why ("'Tide tables' on X (@tidewater): Part 3 of 3 failed:
 * …"); the publish panel shows the same sentence on the part.
 */
export async function announceFollowUpProblem(
  db: Db,
  o: Omit<Outcome, 'outcome' | 'error'> & { error: string; uncertain: boolean },
) {
  const { post, destination } = await describeTarget(db, { ...o, outcome: 'FAILED' });
  await recordNotification(
    db,
    o.organizationId,
    { admins: true, userIds: o.authorId ? [o.authorId] : [] },
    {
      type: 'POST_FAILED',
      priority: 'HIGH',
      message: `${post} on ${destination}: ${o.error}${o.uncertain ? ' Check the account and say what happened in the publish panel.' : ''}`,
      postId: o.postId,
    },
  );
}
