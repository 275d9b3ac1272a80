import { PlatformError } from '../errors.js';
import type { NetworkComment, PublishingAdapter, StoredAccount } from '../types.js';
import { LINKEDIN_COMMENTS_PAGE_MAX } from './limits.js';
import type { LinkedInCommentElement, LinkedInPublishApi } from './publish-api.js';
import { visibleCall } from './visible-call.js';

interface LinkedInCommentDeps {
  api: LinkedInPublishApi;
  finalizeTimeoutMs: number;
}

/** `urn:li:comment:(<entity urn>,<id>)` → the entity the comment hangs on, and its id. */
function parseCommentUrn(urn: string) {
  const m = /^urn:li:comment:\((urn:li:[a-zA-Z]+:[^,]+),([^)]+)\)$/.exec(urn);
  if (!m)
    throw new PlatformError('bad_request', `"${urn}" is not a LinkedIn comment id.`, {
      code: 'comment_urn',
    });
  return { target: m[1]!, id: m[2]! };
}

const ORG = /^urn:li:organization:(\d+)$/;

/** LinkedIn returns URNs only; other members' names are not readable (docs/networks.md#linkedin-comments, #comment-mapping). */
const MEMBER = 'LinkedIn member';

/** 403 on reading comments: an app permission, which reconnecting would not change. */
function readRefused(err: unknown): never {
  if (err instanceof PlatformError && err.details.status === 403)
    throw new PlatformError(
      'bad_request',
      `LinkedIn only lets approved apps read comments on a member's own posts, so Herald cannot show them for this account (${err.message}).`,
      err.details,
    );
  throw err;
}

/** 403 on changing a comment: it is someone else's, which reconnecting would not change. */
function changeRefused(action: 'edit' | 'delete') {
  return (err: unknown): never => {
    if (err instanceof PlatformError && err.details.status === 403)
      throw new PlatformError(
        'bad_request',
        `LinkedIn lets Herald ${action} only this account's own comments (${err.message}).`,
        err.details,
      );
    throw err;
  };
}

/**
 * Comments on LinkedIn (docs/networks.md#linkedin-comments, #comment-mapping) through `/rest/socialActions/{urn}/
 * comments`: listed with their replies (one level), answered with `parentComment`, edited with a
 * partial update and deleted as the connected account (`actor`).
 */
export function createLinkedInComments(
  deps: LinkedInCommentDeps,
): Pick<PublishingAdapter, 'listComments' | 'reply' | 'editComment' | 'deleteComment'> {
  const { api } = deps;
  const token = (account: StoredAccount) => account.tokens.accessToken;

  /** Display names for the actors of a page: ourselves, organizations (looked up), members. */
  function namer(account: StoredAccount) {
    const organizations = new Map<string, Promise<string | null>>();
    const ownName = typeof account.extra.name === 'string' ? account.extra.name : null;
    return async (actor: string) => {
      if (actor === account.externalId && ownName) return ownName;
      const org = ORG.exec(actor)?.[1];
      if (!org) return MEMBER;
      if (!organizations.has(org))
        organizations.set(
          org,
          api.organizationName(token(account), org).catch(() => null),
        );
      return (await organizations.get(org)) ?? 'LinkedIn page';
    };
  }

  async function toComment(
    c: LinkedInCommentElement,
    account: StoredAccount,
    nameOf: (actor: string) => Promise<string>,
  ): Promise<NetworkComment> {
    const actor = c.actor ?? '';
    return {
      id: c.commentUrn ?? c.id ?? '',
      message: c.message?.text ?? '',
      likes: c.likesSummary?.totalLikes ?? 0,
      createdTime: new Date(c.created?.time ?? 0).toISOString(),
      from: { id: actor, name: await nameOf(actor), pictureUrl: null },
      isOwn: actor === account.externalId,
      replies: [],
    };
  }

  return {
    async listComments(account, externalId, page) {
      const start = Math.max(0, Number(page.cursor ?? 0) || 0);
      const count = Math.min(LINKEDIN_COMMENTS_PAGE_MAX, Math.max(1, page.limit));
      const answer = await api
        .comments(token(account), externalId, start, count)
        .catch(readRefused);
      const nameOf = namer(account);
      const elements = answer.elements ?? [];
      const comments = await Promise.all(
        elements.map(async (c) => {
          const comment = await toComment(c, account, nameOf);
          // Replies hang under their comment; fetch them only where there are some.
          if ((c.commentsSummary?.totalFirstLevelComments ?? 0) > 0 && comment.id) {
            const replies = await api
              .comments(token(account), comment.id, 0, LINKEDIN_COMMENTS_PAGE_MAX)
              .catch(readRefused);
            comment.replies = await Promise.all(
              (replies.elements ?? []).map((r) => toComment(r, account, nameOf)),
            );
          }
          return comment;
        }),
      );
      const next = start + elements.length;
      const total = answer.paging?.total;
      const more = total !== undefined ? next < total : elements.length === count;
      return { comments, nextCursor: more && elements.length ? String(next) : null };
    },

    async reply(account, target, message) {
      const parent =
        target.commentId && target.commentId !== target.externalId ? target.commentId : null;
      const created = await visibleCall('the comment', deps.finalizeTimeoutMs, (signal) =>
        api.createComment(
          token(account),
          parent ?? target.externalId,
          {
            actor: account.externalId,
            object: target.externalId,
            message: { text: message },
            ...(parent ? { parentComment: parent } : {}),
          },
          signal,
        ),
      );
      const element: LinkedInCommentElement = created.element ?? {
        id: created.id ?? '',
        actor: account.externalId,
        created: { time: Date.now() },
        message: { text: message },
      };
      return toComment(element, account, namer(account));
    },

    async editComment(account, commentId, message) {
      const { target, id } = parseCommentUrn(commentId);
      await api
        .editComment(token(account), target, id, account.externalId, message)
        .catch(changeRefused('edit'));
    },

    async deleteComment(account, commentId) {
      const { target, id } = parseCommentUrn(commentId);
      try {
        await api.deleteComment(token(account), target, id, account.externalId);
      } catch (err) {
        // Already gone is what the caller wanted.
        if (err instanceof PlatformError && err.details.status === 404) return;
        changeRefused('delete')(err);
      }
    },
  };
}
