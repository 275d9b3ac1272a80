import {
  applyLinkTracking,
  withShortLinkLengths,
  fieldOfRule,
  isTextRule,
  postTextProblems,
  contentForAccount,
  contentRequiredMessage,
  MediaConstraintsSchema,
  type CreatePostFields,
  type LinkTracking,
  type MediaConstraints,
  type MediaFacts,
  type PostContent,
  type PostValidationError,
} from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia } from '../../media/media-store.js';
import type * as repo from './posts.repository.js';
import type { Db } from '../../db/client.js';
import { shortLinksOn } from '../short-links/short-links.service.js';

/*
 * The rules a post's accounts, texts and time must meet, shared by creating and editing
 * (docs/product.md#posts-validation): both paths call these, so they cannot drift apart.
 */

export function constraintsOf(raw: unknown): MediaConstraints | null {
  const parsed = MediaConstraintsSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function factsOf(file: IngestedMedia): MediaFacts {
  return {
    fileName: file.fileName,
    mimeType: file.mimeType,
    size: file.size,
    width: file.width,
    height: file.height,
    durationSec: file.durationSec,
  };
}

/** Turns rule failures into the 400 of docs/product.md#messages: media problems as platformValidationErrors. */
export function throwValidation(errors: PostValidationError[]): never {
  const media = errors.filter((e) => e.field === 'media');
  if (media.length > 0) {
    const names = [...new Set(media.map((e) => e.platformName))].join(', ');
    // A text a network would refuse (a second cashtag on X, a sixth link on Threads) is not a
    // file's problem: the summary says what to change.
    const summary = media.every((e) => isTextRule(e.rule))
      ? `The text breaks the rules of ${names}.`
      : `Media validation failed for ${names}.`;
    throw new AppError('VALIDATION_FAILED', summary, {
      platformValidationErrors: media.map(({ platformName, message }) => ({
        platformName,
        message,
      })),
    });
  }
  throw new AppError('VALIDATION_FAILED', errors.map((e) => e.message).join(' '));
}

/** Content as stored: the shared text, plus per-account and per-platform texts when customized. */
export function splitContent(content: PostContent): {
  content: string;
  contentByPlatform: Record<string, string> | null;
} {
  if (typeof content === 'string') return { content, contentByPlatform: null };
  const { default: shared = '', ...perTarget } = content;
  return { content: shared, contentByPlatform: perTarget };
}

/** One account a post goes to, with its network's rules. */
export interface TargetRule {
  integrationId: string | null;
  platformId: string;
  /** The network's name, or "Facebook (Page name)" when the post goes to several of its accounts. */
  platformName: string;
  constraints: MediaConstraints | null;
}

export const accountLabel = (a: { name: string | null; username: string | null }) =>
  a.name ?? (a.username ? `@${a.username}` : null);

/** Names each target by its network, adding the account where one network has several. */
export function labelTargets<
  T extends {
    platformId: string;
    platformName: string;
    name: string | null;
    username: string | null;
  },
>(targets: T[]): Array<T & { label: string }> {
  return targets.map((t) => {
    const shared = targets.filter((o) => o.platformId === t.platformId).length > 1;
    const account = accountLabel(t);
    return { ...t, label: shared && account ? `${t.platformName} (${account})` : t.platformName };
  });
}

/** Refuses texts keyed by an account or platform that is not among the post's targets. */
export function checkContentKeys(content: PostContent, targets: readonly TargetRule[]) {
  if (typeof content !== 'string') {
    const known = new Set(['default']);
    for (const t of targets) {
      known.add(t.platformId);
      if (t.integrationId) known.add(t.integrationId);
    }
    const stray = Object.keys(content).filter((key) => !known.has(key));
    if (stray.length > 0) {
      throw new AppError(
        'VALIDATION_FAILED',
        `content has texts for accounts or platforms this post does not go to: ${stray.join(', ')}.`,
      );
    }
  }
}

/**
 * Every content rule of docs/product.md#posts-validation for one version of a post's text, for
 * `targets` (the caller checks the keys with checkContentKeys against all of the post's targets).
 */
export function contentErrors(
  content: PostContent,
  targets: readonly TargetRule[],
  mediaFor: (target: TargetRule) => readonly unknown[],
): PostValidationError[] {
  const errors: PostValidationError[] = [];
  for (const target of targets) {
    const text = contentForAccount(content, target);
    const at = { platformId: target.platformId, platformName: target.platformName };
    if (typeof content !== 'string' && text.trim() === '') {
      errors.push({ ...at, field: 'content', message: contentRequiredMessage(target.platformId) });
    } else if (text.trim() === '' && mediaFor(target).length === 0) {
      errors.push({
        ...at,
        field: 'content',
        message: `Write some text or add media for ${target.platformName}.`,
      });
    }
  }
  return errors;
}

/** A target's network name: its label without the account ("Facebook (Page)" → "Facebook"). */
const networkOf = (target: TargetRule) => target.platformName.replace(/ \(.*\)$/s, '');

/**
 * The text an account's post will be sent with (docs/product.md#link-tracking): its own text,
 * with the post's UTM parameters added to its links as the publisher adds them. Length rules
 * count this text, so a link that grows with tracking is counted as it goes out (X counts
 * every link as 23 characters whatever its length).
 */
export function sentText(
  content: PostContent,
  target: TargetRule,
  tracking: LinkTracking | null | undefined,
  shortBase?: string | null,
) {
  const text = applyLinkTracking(contentForAccount(content, target), tracking, networkOf(target));
  // docs/analytics.md#short-links: each link goes out as a short link of this length.
  return shortBase ? withShortLinkLengths(text, shortBase) : text;
}

/**
 * The rules of each account's text that hold whatever the files are (the shared rule set's
 * `postTextProblems`: length as the network counts it, X's cashtag, Threads' links, Instagram's
 * hashtags and mentions), for the text as it will be sent.
 */
export function textErrors(
  content: PostContent,
  targets: readonly TargetRule[],
  tracking?: LinkTracking | null,
  shortBase?: string | null,
): PostValidationError[] {
  const errors: PostValidationError[] = [];
  for (const target of targets) {
    const problems = postTextProblems(
      networkOf(target),
      { text: sentText(content, target, tracking, shortBase), media: [] },
      { constraints: target.constraints, label: target.platformName },
    );
    for (const p of problems) {
      errors.push({
        platformId: target.platformId,
        platformName: target.platformName,
        field: fieldOfRule(p.rule),
        message: p.message,
        rule: p.rule,
      });
    }
  }
  return errors;
}

export function resolveSchedule(
  fields: Pick<CreatePostFields, 'action' | 'scheduledAt'>,
  now: Date,
): { status: repo.PostRow['status']; scheduledAt: Date | null } {
  const action = fields.action ?? (fields.scheduledAt ? 'schedule' : 'draft');
  if (action === 'draft') return { status: 'draft', scheduledAt: null };
  if (action === 'publish') return { status: 'scheduled', scheduledAt: now };
  // The slot is taken inside the create transaction (queue.service takeQueueSlot).
  if (action === 'queue') return { status: 'scheduled', scheduledAt: null };
  if (!fields.scheduledAt) {
    throw new AppError('VALIDATION_FAILED', 'Pick a date and time to schedule the post for.');
  }
  return { status: 'scheduled', scheduledAt: futureTime(fields.scheduledAt, now) };
}

export function futureTime(iso: string, now: Date): Date {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) {
    throw new AppError('VALIDATION_FAILED', 'scheduledAt must be a date and time.');
  }
  if (at.getTime() <= now.getTime()) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The scheduled time has already passed. Pick a time in the future.',
    );
  }
  return at;
}

export const describeAccount = (a: repo.ConnectedAccount) => {
  const handle = a.username ? `@${a.username}` : null;
  const name =
    a.name && handle && a.name !== a.username ? `${a.name} (${handle})` : (a.name ?? handle);
  return `${name ?? 'an account'} — id ${a.integrationId}`;
};

/**
 * The accounts a create request names: `integrationIds` as given, and each platform id not
 * already covered stands for that network's one connected account. Two accounts of a network
 * and only its platform id is ambiguous: the answer names the accounts to choose from.
 */
export function chooseAccounts(
  connected: repo.ConnectedAccount[],
  fields: Pick<CreatePostFields, 'integrationIds' | 'platformIds'>,
): repo.ConnectedAccount[] {
  const byId = new Map(connected.map((a) => [a.integrationId, a]));
  const integrationIds = [...new Set(fields.integrationIds ?? [])];
  const unknown = integrationIds.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `These accounts are not connected to this organization: ${unknown.join(', ')}. Connect them in Settings first, or choose other accounts.`,
    );
  }
  const chosen = integrationIds.map((id) => byId.get(id)!);
  const covered = new Set(chosen.map((a) => a.platformId));
  const missing: string[] = [];
  for (const platformId of new Set(fields.platformIds ?? [])) {
    if (covered.has(platformId)) continue;
    const ofNetwork = connected.filter((a) => a.platformId === platformId);
    if (ofNetwork.length === 0) {
      missing.push(platformId);
    } else if (ofNetwork.length > 1) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${ofNetwork[0]!.platformName} has ${ofNetwork.length} connected accounts: ${ofNetwork.map(describeAccount).join('; ')}. Choose the ones to post to by sending their ids in integrationIds.`,
        {
          accounts: ofNetwork.map((a) => ({
            integrationId: a.integrationId,
            platformName: a.platformName,
            name: a.name,
            username: a.username,
          })),
        },
      );
    } else {
      chosen.push(ofNetwork[0]!);
    }
  }
  if (missing.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `These platforms are not connected to this organization: ${missing.join(', ')}. Connect them in Settings first.`,
    );
  }
  const inactive = [...new Set(chosen.filter((a) => !a.isActive).map((a) => a.platformName))];
  if (inactive.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Posting to ${inactive.join(', ')} is not available right now. Choose other accounts.`,
    );
  }
  if (chosen.length > 10) {
    throw new AppError('VALIDATION_FAILED', 'A post can go to at most 10 accounts.');
  }
  return chosen;
}

/** Refuses `platformMedia` keys that name no account or network the post goes to. */
export function checkMediaKeys(keys: readonly string[], targets: readonly TargetRule[]) {
  for (const key of keys) {
    if (!targets.some((t) => t.platformId === key || t.integrationId === key)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `platformMedia names an account or platform this post does not go to: ${key}.`,
      );
    }
  }
}

/**
 * The start of the short links a post's links become (docs/analytics.md#short-links), or null
 * when its links go out as written: the post's own choice, else the organization's setting.
 */
export async function shortBaseFor(
  db: Db,
  organizationId: string,
  choice: boolean | null | undefined,
  shortLinkBase: string | undefined,
) {
  if (!shortLinkBase) return null;
  return (await shortLinksOn(db, organizationId, choice ?? null)) ? shortLinkBase : null;
}
