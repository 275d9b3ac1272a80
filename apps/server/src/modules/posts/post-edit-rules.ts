import {
  contentForAccount,
  mediaGoesTo,
  type EditPostFields,
  type PostContent,
  type TargetStatus,
} from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import type { TargetRule } from './post-rules.js';

/*
 * What an edit may change of a post that is partly out (docs/product.md#post-details): an
 * account the post went out to (or is going out to, or whose outcome needs a check) keeps its
 * text and its files; everything else follows the request. Pure functions, so each rule is
 * tested on its own.
 */

/** Target states whose account can no longer be changed or removed by an edit. */
export const LOCKED_TARGET_STATUSES: readonly TargetStatus[] = [
  'PREPARING',
  'READY',
  'PUBLISHING',
  'PUBLISHED',
  'UNCERTAIN',
];

export const isLockedStatus = (status: TargetStatus) => LOCKED_TARGET_STATUSES.includes(status);

/** A target of the edited post with its own name ("Facebook (Harbor Cafe)") and state. */
export interface EditTarget extends TargetRule {
  status: TargetStatus;
}

const STATE_WORDS: Partial<Record<TargetStatus, string>> = {
  PUBLISHED: 'published',
  UNCERTAIN: 'needs a check',
};

/** "X (published), Threads (publishing now)": the locked targets named in a refusal. */
export function describeLocked(targets: readonly EditTarget[]): string {
  return targets
    .map((t) => `${t.platformName} (${STATE_WORDS[t.status] ?? 'publishing now'})`)
    .join(', ');
}

const conflict = (message: string) => new AppError('CONFLICT', message);

/**
 * The one content or platformMedia key that names this target and no other: its account id, or
 * for an account disconnected since, its network's id while no other target shares the network.
 */
function ownKey(target: TargetRule, all: readonly TargetRule[]): string | null {
  if (target.integrationId) return target.integrationId;
  return all.filter((o) => o.platformId === target.platformId).length === 1
    ? target.platformId
    : null;
}

function cannotPin(target: EditTarget): AppError {
  return conflict(
    `${target.platformName} went out from an account that is no longer connected, so its text and media cannot be kept apart from the other ${target.platformName.split(' (')[0]} accounts. Leave the shared text and media as they are, or reconnect the account first.`,
  );
}

/**
 * The text the post keeps from now on: the requested one, with each locked target's text pinned
 * to what it had (as its own entry), so changing the shared text never rewrites what went out.
 * A request that names a locked account's text with something else is refused.
 */
export function pinLockedText(
  before: PostContent,
  requested: PostContent,
  locked: readonly EditTarget[],
  all: readonly TargetRule[],
): PostContent {
  const changed = locked.filter((target) => {
    if (typeof requested === 'string' || !target.integrationId) return false;
    const own = requested[target.integrationId];
    return own !== undefined && own !== contentForAccount(before, target);
  });
  if (changed.length > 0) {
    throw conflict(
      `The text for ${describeLocked(changed)} cannot change: the post already went out (or is going out) there. Change the text of the other accounts only.`,
    );
  }
  let content = requested;
  for (const target of locked) {
    const had = contentForAccount(before, target);
    if (contentForAccount(content, target) === had) continue;
    const key = ownKey(target, all);
    if (!key) throw cannotPin(target);
    content = { ...(typeof content === 'string' ? { default: content } : content), [key]: had };
  }
  return content;
}

/** One file of the edited post: a stored one that stays, or a new upload (by its index). */
export type MediaRef = { kind: 'stored'; id: string } | { kind: 'new'; index: number };

export interface PlacedMedia {
  ref: MediaRef;
  /** Account or network ids it goes to; null for every account of the post. */
  owners: string[] | null;
}

export interface MediaLayout {
  /** The post's files in their new order. */
  files: PlacedMedia[];
  /** Stored files that leave the post. */
  removedIds: string[];
}

interface StoredMedia {
  id: string;
  fileName: string;
  platformIds: string[] | null;
}

const refKey = (ref: MediaRef) => (ref.kind === 'stored' ? ref.id : `#${ref.index}`);

/** The request's files and their owners, each reference checked against the post and the upload. */
function requestedLayout(
  fields: Pick<EditPostFields, 'keepMediaIds' | 'platformMedia'>,
  stored: readonly StoredMedia[],
  uploaded: number,
): PlacedMedia[] {
  const storedIds = new Set(stored.map((m) => m.id));
  const keep = [...new Set(fields.keepMediaIds ?? [])];
  const strangers = keep.filter((id) => !storedIds.has(id));
  if (strangers.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `keepMediaIds names files that are not part of this post: ${strangers.join(', ')}. Reload the post and try again.`,
    );
  }
  const owners = new Map<string, string[]>();
  for (const [key, refs] of Object.entries(fields.platformMedia ?? {})) {
    for (const ref of refs) {
      if (typeof ref === 'number' && ref >= uploaded) {
        throw new AppError(
          'VALIDATION_FAILED',
          `platformMedia refers to file ${ref + 1}, but only ${uploaded} file${uploaded === 1 ? ' was' : 's were'} uploaded.`,
        );
      }
      if (typeof ref === 'string' && !keep.includes(ref)) {
        throw new AppError(
          'VALIDATION_FAILED',
          `platformMedia names the file ${ref}, which keepMediaIds does not keep.`,
        );
      }
      const id = typeof ref === 'number' ? `#${ref}` : ref;
      owners.set(id, [...new Set([...(owners.get(id) ?? []), key])]);
    }
  }
  const refs: MediaRef[] = [
    ...keep.map((id) => ({ kind: 'stored' as const, id })),
    ...Array.from({ length: uploaded }, (_, index) => ({ kind: 'new' as const, index })),
  ];
  return refs.map((ref) => ({ ref, owners: owners.get(refKey(ref)) ?? null }));
}

/**
 * Where each file goes after the edit. Without locked targets, exactly as requested. With them,
 * each locked target keeps exactly the files it had: a file it had stays with it (even when the
 * request drops the file, which then goes to that target only), and a new or re-aimed file does
 * not reach it. Owners are then written as account ids, one per target.
 */
export function layoutMedia(
  fields: Pick<EditPostFields, 'keepMediaIds' | 'platformMedia'>,
  stored: readonly StoredMedia[],
  uploaded: number,
  locked: readonly EditTarget[],
  all: readonly TargetRule[],
): MediaLayout {
  const files = requestedLayout(fields, stored, uploaded);
  const byId = new Map(stored.map((m) => [m.id, m]));
  const kept = new Set(files.flatMap((f) => (f.ref.kind === 'stored' ? [f.ref.id] : [])));
  if (locked.length === 0) {
    return { files, removedIds: stored.filter((m) => !kept.has(m.id)).map((m) => m.id) };
  }

  const hadIt = (ref: MediaRef, target: TargetRule) =>
    ref.kind === 'stored' && mediaGoesTo(byId.get(ref.id)!.platformIds, target);
  const aimed = locked.filter((target) => {
    if (!target.integrationId || !fields.platformMedia?.[target.integrationId]) return false;
    const asked = new Set(fields.platformMedia[target.integrationId]);
    const own = stored.filter((m) => m.platformIds?.includes(target.integrationId!));
    return asked.size !== own.length || own.some((m) => !asked.has(m.id));
  });
  if (aimed.length > 0) {
    throw conflict(
      `The media for ${describeLocked(aimed)} cannot change: the post already went out (or is going out) there. Change the media of the other accounts only.`,
    );
  }

  // Files the request drops but a locked target had: they stay, for that target only.
  const held = stored
    .filter((m) => !kept.has(m.id) && locked.some((t) => mediaGoesTo(m.platformIds, t)))
    .map((m) => ({ ref: { kind: 'stored' as const, id: m.id }, owners: null, isHeld: true }));
  const lockedSet = new Set<TargetRule>(locked);
  const placed = [...files.map((f) => ({ ...f, isHeld: false })), ...held].map((file) => {
    const reaches = all.filter((target) =>
      lockedSet.has(target)
        ? hadIt(file.ref, target)
        : !file.isHeld && mediaGoesTo(file.owners, target),
    );
    if (reaches.length === 0) {
      const name = file.ref.kind === 'stored' ? byId.get(file.ref.id)!.fileName : 'A new file';
      throw new AppError(
        'VALIDATION_FAILED',
        `${name} goes to no account that can still change. Give it to one of them, or remove it.`,
      );
    }
    if (reaches.length === all.length) return { ref: file.ref, owners: null };
    const owners = reaches.map((target) => {
      const key = ownKey(target, all);
      if (!key) throw cannotPin(target as EditTarget);
      return key;
    });
    return { ref: file.ref, owners };
  });
  const placedIds = new Set(placed.flatMap((f) => (f.ref.kind === 'stored' ? [f.ref.id] : [])));
  return { files: placed, removedIds: stored.filter((m) => !placedIds.has(m.id)).map((m) => m.id) };
}
