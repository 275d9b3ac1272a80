import { randomInt } from 'node:crypto';
import { SHORT_LINK_CODE_LENGTH, replaceLinks, usesShortLinks } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { isBotUserAgent } from '../../lib/bot-user-agent.js';
import * as repo from './short-links.repository.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new code: random letters and digits from the system's secure generator. */
export function newShortLinkCode() {
  let code = '';
  for (let i = 0; i < SHORT_LINK_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** Whether a post's links go out as short links: its own choice, else the organization's. */
export async function shortLinksOn(db: Db, organizationId: string, post: boolean | null) {
  return usesShortLinks(
    post,
    post === null ? await repo.findOrganizationSetting(db, organizationId) : false,
  );
}

/**
 * Whether a target's links go out as short links on this run. A post that follows the
 * organization's setting reads it on the target's first run only: a later run sends what the
 * first one sent (short links when it made some), so a setting changed between a run whose
 * answer was lost and its retry cannot change the text the network is asked for twice.
 */
export async function targetShortensLinks(
  db: Db,
  target: { organizationId: string; targetId: string; attempts: number },
  post: boolean | null,
) {
  if (post !== null || target.attempts === 0) return shortLinksOn(db, target.organizationId, post);
  return repo.targetHasLinks(db, target.organizationId, target.targetId);
}

const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  ((err as { code?: string }).code === '23505' ||
    (err as { cause?: { code?: string } }).cause?.code === '23505');

/**
 * The text with each of its links replaced by the target's short link (`base` + code), made on
 * first use and the same on every later run of the target: a publication tried again sends the
 * same text, and a link is counted under the one target whose text carries it.
 */
export async function shortenLinks(
  db: Db,
  target: { organizationId: string; postId: string; targetId: string },
  text: string,
  base: string,
): Promise<string> {
  const links: Array<{ position: number; url: string; code: string }> = [];
  replaceLinks(text, (url, position) => {
    links.push({ position, url, code: newShortLinkCode() });
    return url;
  });
  if (links.length === 0) return text;
  let rows: Array<{ position: number; code: string }> | undefined;
  // A new code taken by another link (one chance in 10^17) is drawn again.
  for (let attempt = 0; !rows; attempt++) {
    try {
      rows = await repo.upsertTargetLinks(db, target, links);
    } catch (err) {
      if (attempt >= 2 || !isUniqueViolation(err)) throw err;
      for (const link of links) link.code = newShortLinkCode();
    }
  }
  const codes = new Map(rows.map((r) => [r.position, r.code]));
  return replaceLinks(text, (url, position) => {
    const code = codes.get(position);
    return code ? `${base}${code}` : url;
  });
}

/**
 * Where a short link leads, counting the visit unless the User-Agent is a robot's (link
 * previews, crawlers). Null: no such code.
 */
export async function followShortLink(
  db: Db,
  visit: { code: string; userAgent: string | undefined; counts: boolean },
  now: Date,
): Promise<string | null> {
  const { code, userAgent } = visit;
  const row =
    !visit.counts || isBotUserAgent(userAgent)
      ? await repo.findUrl(db, code)
      : await repo.countClick(db, code, now);
  return row?.url ?? null;
}

export const listTargetLinks = repo.listTargetLinks;
