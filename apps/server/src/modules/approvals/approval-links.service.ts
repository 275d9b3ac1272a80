import { createHash, randomBytes } from 'node:crypto';
import {
  APPROVAL_LINKS_LIST_CAP,
  applyLinkTracking,
  approvalLinkPath,
  contentForAccount,
  mediaGoesTo,
  type ApprovalLink,
  type ApprovalLinkState,
  type CreateApprovalLinkRequestSchema,
  type GuestAccountPost,
  type GuestApproval,
  type GuestDecisionRequestSchema,
  type GuestPost,
  type Post,
} from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { escapeHtml, type Mailer } from '../../lib/mailer.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { recordNotification } from '../notifications/notifications.service.js';
import { readBranding } from '../organizations/branding.service.js';
import { toPostDtos } from '../posts/post-dto.js';
import * as postsRepo from '../posts/posts.lookups.js';
import type { PostsDeps } from '../posts/posts.service.js';
import { postLabel } from '../publishing/outcome-notifications.js';
import * as repo from './approval-links.repository.js';
import { approverUserIds } from './approvals.repository.js';
import { approvePost, rejectPost, type Approver } from './approvals.service.js';

/*
 * docs/product.md#client-approval-links: a link that lets a client without an account decide on
 * posts waiting for approval. The token is 256 random bits, shown once in the link and kept only
 * as its SHA-256 hash; it reaches the posts of its link and their files, nothing else.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** 32 random bytes in base64url: 43 characters, nothing else is a token. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const hashLinkToken = (token: string) =>
  createHash('sha256').update(token).digest('base64url');

export interface ApprovalLinkDeps extends PostsDeps {
  mailer: Mailer | null;
  /** Where the web app is (`PUBLIC_URL`): the link opens `{publicUrl}/approve/{token}`. */
  publicUrl: string;
  /** Where the API is (`API_PUBLIC_URL`): the link's files are served under it. */
  apiPublicUrl: string;
}

/** The signed-in approver sending or revoking a link. */
export interface LinkSender {
  organizationId: string;
  organizationName: string;
  user: { id: string; email: string; displayName: string | null };
  /** The API key the approver acts through (docs/api.md); absent or null when signed in. */
  apiKeyId?: string | null;
}

type CreateInput = z.output<typeof CreateApprovalLinkRequestSchema>;
type DecisionInput = z.output<typeof GuestDecisionRequestSchema>;

/** How a link and its entries name a post: its title, else the start of its text. */
function labelOf(row: postsRepo.PostRow): string {
  const text = (row.title?.trim() || row.content || Object.values(row.contentByPlatform ?? {})[0])
    ?.replace(/\s+/g, ' ')
    .trim();
  if (!text) return 'Untitled post';
  const chars = [...text];
  return chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : text;
}

const clientName = (link: repo.ApprovalLinkRow) =>
  link.approverName ?? link.approverEmail ?? 'the client';

function stateOf(
  link: repo.ApprovalLinkRow,
  items: repo.ApprovalLinkPostRow[],
  now: Date,
): ApprovalLinkState {
  if (link.revokedAt) return 'revoked';
  if (items.length > 0 && items.every((item) => item.decision !== null)) return 'decided';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

function linkDto(
  { link, sender }: repo.ListedLink,
  items: repo.ApprovalLinkPostRow[],
  now: Date,
): ApprovalLink {
  return {
    id: link.id,
    state: stateOf(link, items, now),
    approverName: link.approverName,
    approverEmail: link.approverEmail,
    message: link.message,
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    revokedAt: link.revokedAt?.toISOString() ?? null,
    createdBy: sender?.id ? { id: sender.id, displayName: sender.displayName } : null,
    posts: items.map((item) => ({
      postId: item.postId,
      label: item.label,
      decision: item.decision,
      comment: item.comment,
      decidedAt: item.decidedAt?.toISOString() ?? null,
    })),
  };
}

async function linkDtos(db: Db, organizationId: string, links: repo.ListedLink[], now: Date) {
  const items = await repo.postsOfLinks(
    db,
    organizationId,
    links.map(({ link }) => link.id),
  );
  return links.map((listed) =>
    linkDto(
      listed,
      items.filter((item) => item.linkId === listed.link.id),
      now,
    ),
  );
}

/**
 * Makes a link for posts waiting for approval (all of them, or none: a post that is not waiting
 * is named in a 409). Answers the link's URL this once, and emails it to the client when an
 * address is given and Herald sends email.
 */
export async function createApprovalLink(
  deps: ApprovalLinkDeps & { log: FastifyBaseLogger },
  sender: LinkSender,
  input: CreateInput,
) {
  const org = sender.organizationId;
  const now = deps.now();
  const token = randomBytes(32).toString('base64url');
  const link = await deps.db.transaction(async (tx) => {
    // Locked in id order, as the bulk actions lock, so two of them over the same posts queue up.
    const rows = new Map<string, postsRepo.PostRow>();
    for (const postId of [...input.postIds].sort()) {
      const row = await postsRepo.lockPost(tx, org, postId);
      if (!row) {
        throw new AppError(
          'NOT_FOUND',
          'One of the chosen posts does not exist in this organization. Reload the list.',
        );
      }
      rows.set(postId, row);
    }
    const notWaiting = [...rows.values()].filter((row) => row.status !== 'pending_approval');
    if (notWaiting.length > 0) {
      const names = notWaiting.map((row) => `“${labelOf(row)}”`).join(', ');
      throw new AppError(
        'CONFLICT',
        `Only posts waiting for approval can be sent to a client; ${names} ${notWaiting.length === 1 ? 'is' : 'are'} not. Reload the list.`,
        { postIds: notWaiting.map((row) => row.id) },
      );
    }
    const created = await repo.insertLink(tx, {
      organizationId: org,
      tokenHash: hashLinkToken(token),
      approverName: input.approverName ?? null,
      approverEmail: input.approverEmail ?? null,
      message: input.message ?? null,
      createdByUserId: sender.user.id,
      expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
    });
    await repo.insertLinkPosts(
      tx,
      input.postIds.map((postId, position) => {
        const row = rows.get(postId)!;
        return {
          linkId: created.id,
          organizationId: org,
          postId,
          position,
          label: labelOf(row),
          postUpdatedAt: row.updatedAt,
        };
      }),
    );
    await recordAudit(tx, senderActor(sender), {
      action: 'approval_link.create',
      target: { type: 'approval_link', id: created.id, label: auditLabel(created, sender) },
      before: null,
      after: {
        organizationId: org,
        postIds: input.postIds,
        approverName: created.approverName,
        approverEmail: created.approverEmail,
        expiresAt: created.expiresAt.toISOString(),
      },
    });
    return created;
  });
  const url = `${deps.publicUrl}${approvalLinkPath(token)}`;
  const emailSent = link.approverEmail
    ? await sendLinkEmail(deps, { link, url, sender, postCount: input.postIds.length })
    : false;
  const [dto] = await linkDtos(
    deps.db,
    org,
    [{ link, sender: { id: sender.user.id, displayName: sender.user.displayName } }],
    now,
  );
  return { link: dto!, url, emailSent };
}

const senderActor = (sender: LinkSender): AuditActor => ({
  id: sender.user.id,
  email: sender.user.email,
  apiKeyId: sender.apiKeyId ?? null,
});

const auditLabel = (link: repo.ApprovalLinkRow, org: { organizationName: string }) =>
  `Client approval link for ${clientName(link)} (${org.organizationName})`;

async function sendLinkEmail(
  deps: { mailer: Mailer | null; log: FastifyBaseLogger },
  m: { link: repo.ApprovalLinkRow; url: string; sender: LinkSender; postCount: number },
): Promise<boolean> {
  const to = m.link.approverEmail!;
  if (!deps.mailer) {
    deps.log.info(
      { linkId: m.link.id },
      'Client approval link not emailed (no SMTP_URL configured); the sender copies it',
    );
    return false;
  }
  const who = m.sender.user.displayName ?? m.sender.user.email;
  const org = m.sender.organizationName;
  const what = m.postCount === 1 ? 'a post' : `${m.postCount} posts`;
  const until = m.link.expiresAt.toISOString().slice(0, 10);
  const note = m.link.message;
  try {
    await deps.mailer.send({
      to,
      subject: `${org}: please review ${what} before ${m.postCount === 1 ? 'it goes' : 'they go'} out`,
      text: `${who} from ${org} asks you to review ${what} before ${m.postCount === 1 ? 'it is' : 'they are'} published.${note ? `\n\n${note}` : ''}\n\nReview and approve: ${m.url}\n\nNo account is needed. The link works until ${until} (UTC); anyone holding it can decide on these posts, so please do not forward it.`,
      html: `<p>${escapeHtml(who)} from <strong>${escapeHtml(org)}</strong> asks you to review ${what} before ${m.postCount === 1 ? 'it is' : 'they are'} published.</p>${note ? `<p>${escapeHtml(note)}</p>` : ''}<p><a href="${escapeHtml(m.url)}">Review and approve</a></p><p>No account is needed. The link works until ${until} (UTC); anyone holding it can decide on these posts, so please do not forward it.</p>`,
    });
    return true;
  } catch (err) {
    deps.log.error({ err, linkId: m.link.id }, 'approval link email failed; the sender copies it');
    return false;
  }
}

/** The organization's links, newest first (those carrying `postId` when given). */
export async function listApprovalLinks(
  db: Db,
  organizationId: string,
  filter: { postId?: string },
  now: Date,
): Promise<ApprovalLink[]> {
  const links = await repo.listLinks(db, organizationId, filter, APPROVAL_LINKS_LIST_CAP);
  return linkDtos(db, organizationId, links, now);
}

/** Withdraws a link at once: its page, files and decisions answer 410 from now on. */
export async function revokeApprovalLink(
  db: Db,
  sender: LinkSender,
  linkId: string,
  now: Date,
): Promise<ApprovalLink> {
  const org = sender.organizationId;
  return db.transaction(async (tx) => {
    const found = await repo.findLink(tx, org, linkId);
    if (!found) throw new AppError('NOT_FOUND', 'This approval link does not exist.');
    const revoked = await repo.revokeLink(tx, org, linkId, { userId: sender.user.id, at: now });
    if (!revoked) throw new AppError('CONFLICT', 'This approval link was already revoked.');
    await recordAudit(tx, senderActor(sender), {
      action: 'approval_link.revoke',
      target: { type: 'approval_link', id: linkId, label: auditLabel(revoked, sender) },
      before: { revokedAt: null },
      after: { revokedAt: now.toISOString() },
    });
    const [dto] = await linkDtos(tx, org, [{ link: revoked, sender: found.sender }], now);
    return dto!;
  });
}

/* ---------------------------------------------------------------------------------------------
 * The client's side: everything is reached through the token alone.
 * ------------------------------------------------------------------------------------------- */

const unknownLink = () =>
  new AppError(
    'NOT_FOUND',
    'This approval link does not exist. Check that you opened the whole link, or ask the team that sent it for a new one.',
  );

/**
 * The link a token opens, or the answer that says it does not: unknown (404), withdrawn or past
 * its time (410, `details.state`). Nothing of the link shows in a refusal.
 */
async function openLink(db: Db, token: string, now: Date, lock = false) {
  if (!TOKEN_SHAPE.test(token)) throw unknownLink();
  const found = await repo.findLinkByTokenHash(db, hashLinkToken(token), lock);
  if (!found) throw unknownLink();
  if (found.link.revokedAt) {
    throw new AppError(
      'EXPIRED',
      'This approval link was withdrawn by the team that sent it. Ask them for a new one if you still need to review these posts.',
      { state: 'revoked' },
    );
  }
  if (found.link.expiresAt.getTime() <= now.getTime()) {
    throw new AppError(
      'EXPIRED',
      'This approval link has expired. Ask the team that sent it for a new one.',
      { state: 'expired' },
    );
  }
  return found;
}

/**
 * Why a post of the link no longer waits for the client's decision, in a sentence for them; null
 * while it does (still pending and unchanged since the link was made).
 */
function unavailableReason(
  item: repo.ApprovalLinkPostRow,
  post: repo.LinkedPostRow | undefined,
): string | null {
  if (!post) return 'The team deleted this post, so there is nothing to decide.';
  if (post.status === 'draft') {
    return 'The team took this post back to drafts, so it no longer waits for your decision.';
  }
  if (post.status !== 'pending_approval') {
    return 'The team has already approved this post, so it no longer waits for your decision.';
  }
  if (post.updatedAt.getTime() !== item.postUpdatedAt.getTime()) {
    return 'The team changed this post after sending you this link, so it no longer waits for your decision here. They will send you the new version.';
  }
  return null;
}

/** The posts of an open link as they are now, and which of them wait for the client. */
async function linkPosts(db: Db, link: repo.ApprovalLinkRow) {
  const items = await repo.postsOfLinks(db, link.organizationId, [link.id]);
  const rows = await repo.postsByIds(
    db,
    link.organizationId,
    items.flatMap((item) => (item.postId ? [item.postId] : [])),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return items.map((item) => {
    const post = item.postId ? byId.get(item.postId) : undefined;
    return {
      item,
      post,
      unavailable: item.decision === null ? unavailableReason(item, post) : null,
    };
  });
}

type LinkEntry = Awaited<ReturnType<typeof linkPosts>>[number];

const guestMediaUrl = (deps: { apiPublicUrl: string }, token: string, mediaId: string) =>
  `${deps.apiPublicUrl}/guest/approvals/${token}/media/${mediaId}`;

/** Each account's post as the publisher will send it: its text, its files, its follow-ups. */
function accountPosts(
  deps: { apiPublicUrl: string },
  token: string,
  post: Post,
): GuestAccountPost[] {
  return post.platformPosts.map((target) => {
    const account = post.accounts.find(
      (a) => a.id === target.integrationId && a.platformId === target.platformId,
    );
    const followUps = [...(target.followUps ?? [])].sort((a, b) => a.position - b.position);
    return {
      network: target.platformName,
      accountName: target.accountName ?? account?.name ?? target.platformName,
      username: target.accountUsername ?? account?.username ?? null,
      pictureUrl: target.accountPictureUrl ?? account?.pictureUrl ?? null,
      text: applyLinkTracking(
        contentForAccount(post.content, target),
        post.linkTracking,
        target.platformName,
      ),
      media: post.media
        .filter((m) => mediaGoesTo(m.platformIds, target))
        .map((m) => ({
          id: m.id,
          kind: m.kind,
          url: guestMediaUrl(deps, token, m.id),
          thumbnailUrl: m.thumbnailUrl ? `${guestMediaUrl(deps, token, m.id)}/thumbnail` : null,
          fileName: m.fileName,
          altText: m.altText ?? null,
        })),
      parts: followUps.filter((f) => f.kind === 'part').map((f) => f.text),
      firstComment: followUps.find((f) => f.kind === 'first_comment')?.text ?? null,
      contentWarning: target.mastodon?.spoilerText || null,
    };
  });
}

function guestPost(entry: LinkEntry, accounts: GuestAccountPost[]): GuestPost {
  const { item, post, unavailable } = entry;
  const decided = item.decision !== null;
  return {
    id: item.postId ?? item.id,
    label: item.label,
    state: decided
      ? item.decision === 'approve'
        ? 'approved'
        : 'changes_requested'
      : unavailable
        ? 'unavailable'
        : 'waiting',
    unavailableReason: unavailable,
    comment: item.comment,
    decidedAt: item.decidedAt?.toISOString() ?? null,
    scheduledAt: post?.scheduledAt?.toISOString() ?? null,
    accounts: decided || unavailable ? [] : accounts,
  };
}

/** The post DTOs of the entries that wait, with no signed media URL: files go through the link. */
async function waitingPostDtos(deps: PostsDeps, link: repo.ApprovalLinkRow, entries: LinkEntry[]) {
  const waiting = entries.flatMap((e) =>
    e.post && e.item.decision === null && !e.unavailable ? [e.post] : [],
  );
  const dtos = await toPostDtos(
    { db: deps.db, media: { signedUrl: () => '' } },
    link.organizationId,
    waiting,
  );
  return new Map(dtos.map((dto) => [dto.id, dto]));
}

/** `GET /guest/approvals/{token}`: the organization's name and branding, and each post of the link. */
export async function guestApproval(deps: ApprovalLinkDeps, token: string): Promise<GuestApproval> {
  const { link, organizationName, senderName } = await openLink(deps.db, token, deps.now());
  const [entries, branding] = await Promise.all([
    linkPosts(deps.db, link),
    readBranding(deps.db, link.organizationId),
  ]);
  const dtos = await waitingPostDtos(deps, link, entries);
  return {
    organization: {
      name: organizationName,
      branding: {
        // Through the link like its files: no signed URL naming the organization, and it stops
        // with the link.
        logoUrl: branding.logoKey ? `${deps.apiPublicUrl}/guest/approvals/${token}/logo` : null,
        color: branding.color,
      },
    },
    approverName: link.approverName,
    message: link.message,
    sentBy: senderName,
    expiresAt: link.expiresAt.toISOString(),
    posts: entries.map((entry) => {
      const dto = entry.post ? dtos.get(entry.post.id) : undefined;
      return guestPost(entry, dto ? accountPosts(deps, token, dto) : []);
    }),
  };
}

/** The storage key of the organization's logo, while the link is open; 404 without a logo. */
export async function guestLogoKey(db: Db, token: string, now: Date): Promise<string> {
  const { link } = await openLink(db, token, now);
  const { logoKey } = await readBranding(db, link.organizationId);
  if (!logoKey) throw new AppError('NOT_FOUND', 'This organization has no logo.');
  return logoKey;
}

/**
 * The storage key of a file the link shows: a file of a post of the link that still waits for
 * the client. Any other id (another post's file, another organization's) is unknown here.
 */
export async function guestMediaKey(
  db: Db,
  token: string,
  mediaId: string,
  variant: 'original' | 'thumbnail',
  now: Date,
): Promise<string> {
  const { link } = await openLink(db, token, now);
  const notHere = new AppError('NOT_FOUND', 'This file is not part of this approval link.');
  if (!UUID.test(mediaId)) throw notHere;
  const waiting = (await linkPosts(db, link)).flatMap((e) =>
    e.post && e.item.decision === null && !e.unavailable ? [e.post.id] : [],
  );
  const file = await repo.mediaOfPosts(db, link.organizationId, waiting, mediaId);
  const key = variant === 'thumbnail' ? file?.thumbnailKey : file?.storageKey;
  if (!key) throw notHere;
  return key;
}

/**
 * `POST /guest/approvals/{token}/decisions`: the client approves a post of the link or asks for
 * changes, once. The decision runs through the approvers' own code (`approvePost`,
 * `rejectPost`), recorded as the client's in the post's history; the link keeps it, the team
 * is told and the audit log has it, all in one transaction.
 */
export async function decideAsGuest(
  deps: ApprovalLinkDeps,
  token: string,
  input: DecisionInput,
  meta: { ip: string },
): Promise<GuestPost> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const { link, organizationName } = await openLink(tx, token, now, true);
    const org = link.organizationId;
    const items = await repo.postsOfLinks(tx, org, [link.id]);
    const item = items.find((i) => i.postId === input.postId);
    if (!item) throw new AppError('NOT_FOUND', 'This post is not part of this approval link.');
    if (item.decision !== null) {
      const done = item.decision === 'approve' ? 'approved' : 'asked for changes to';
      throw new AppError(
        'CONFLICT',
        `You already ${done} this post on ${item.decidedAt!.toISOString().slice(0, 10)}. Each post takes one decision; tell the team if you changed your mind.`,
      );
    }
    // Held until the decision commits: an edit racing it waits, and is then judged on its own.
    const post = (await postsRepo.lockPost(tx, org, input.postId)) ?? undefined;
    const unavailable = unavailableReason(item, post);
    if (unavailable) throw new AppError('CONFLICT', unavailable);
    const approver: Approver = {
      organizationId: org,
      userId: null,
      guest: { name: link.approverName, email: link.approverEmail },
    };
    const postDeps = { ...deps, db: tx };
    const comment = input.comment ?? null;
    let after: Post;
    if (input.decision === 'approve') {
      after = await approvePost(postDeps, approver, input.postId, input.publishNow === true).catch(
        (error: unknown) => {
          // The network's rules are the team's to meet: the client is told in those terms.
          if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
            throw new AppError(
              'CONFLICT',
              `This post cannot go out as it is, so it was not approved: ${error.message} The team has to fix it first; you may ask for changes instead.`,
            );
          }
          throw error;
        },
      );
    } else {
      after = await rejectPost(postDeps, approver, input.postId, comment!);
    }
    const decided = await repo.recordDecision(tx, item.id, {
      decision: input.decision,
      comment,
      at: now,
    });
    if (!decided)
      throw new AppError('CONFLICT', 'This post was decided meanwhile. Reload the page.');
    await tellTheTeam(tx, link, post!, after, comment, now);
    await recordAudit(
      tx,
      {
        id: null,
        email: `${[link.approverName, link.approverEmail && `<${link.approverEmail}>`].filter(Boolean).join(' ') || 'A client'} (client link)`,
      },
      {
        action: 'approval_link.decide',
        target: {
          type: 'approval_link',
          id: link.id,
          label: auditLabel(link, { organizationName }),
        },
        before: null,
        after: {
          postId: input.postId,
          post: item.label,
          decision: input.decision,
          comment,
          status: after.status,
          ip: meta.ip,
        },
      },
    );
    return guestPost({ item: decided, post, unavailable: null }, []);
  });
}

/**
 * Tells the link's sender and the organization's approvers what the client decided (the post's
 * author hears it from the approval code itself, as after any approver's decision).
 */
async function tellTheTeam(
  db: Db,
  link: repo.ApprovalLinkRow,
  post: repo.LinkedPostRow,
  after: Post,
  comment: string | null,
  now: Date,
) {
  const recipients = [
    ...new Set([
      ...(await approverUserIds(db, link.organizationId)),
      ...(link.createdByUserId ? [link.createdByUserId] : []),
    ]),
  ].filter((id) => id !== post.createdByUserId);
  if (recipients.length === 0) return;
  const who = `${clientName(link)} (client)`;
  const said = comment ? `: “${comment}”` : '.';
  const approved = after.status !== 'draft';
  const goesNow = !after.scheduledAt || Date.parse(after.scheduledAt) <= now.getTime();
  const next = goesNow ? 'It is being published now.' : 'It is scheduled.';
  await recordNotification(
    db,
    link.organizationId,
    { userIds: recipients },
    approved
      ? {
          type: 'POST_APPROVED',
          priority: 'MEDIUM',
          message: `${who} approved ${postLabel(post)} through the approval link${said} ${next}`,
          postId: post.id,
          webhook: post.createdByUserId === null,
        }
      : {
          type: 'POST_REJECTED',
          priority: 'HIGH',
          message: `${who} asked for changes to ${postLabel(post)}${said} It is back in drafts.`,
          postId: post.id,
          webhook: post.createdByUserId === null,
        },
  );
}
