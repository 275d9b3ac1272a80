import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations, shortLinks } from '../../db/schema.js';

export type ShortLinkRow = typeof shortLinks.$inferSelect;

/** The organization's short-link setting as stored with its link tracking (absent: off). */
export async function findOrganizationSetting(db: Db, organizationId: string) {
  const [row] = await db
    .select({ linkTracking: organizations.linkTracking })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const stored = row?.linkTracking as { shortLinks?: unknown } | null | undefined;
  return stored?.shortLinks === true;
}

/**
 * The target's short links for these links, made once per position: a position already made
 * keeps its code (a link edited since then leads to the new address).
 */
export async function upsertTargetLinks(
  db: Db,
  target: { organizationId: string; postId: string; targetId: string },
  links: ReadonlyArray<{ position: number; url: string; code: string }>,
) {
  return db
    .insert(shortLinks)
    .values(links.map((l) => ({ ...target, ...l })))
    .onConflictDoUpdate({
      target: [shortLinks.targetId, shortLinks.position],
      set: { url: sql`excluded.url` },
    })
    .returning({ position: shortLinks.position, code: shortLinks.code });
}

/** The address a code leads to, counting the click. */
export async function countClick(db: Db, code: string, at: Date) {
  const [row] = await db
    .update(shortLinks)
    .set({ clicks: sql`${shortLinks.clicks} + 1`, lastClickedAt: at })
    .where(eq(shortLinks.code, code))
    .returning({ url: shortLinks.url });
  return row ?? null;
}

/** The address a code leads to, without counting. */
export async function findUrl(db: Db, code: string) {
  const [row] = await db
    .select({ url: shortLinks.url })
    .from(shortLinks)
    .where(eq(shortLinks.code, code));
  return row ?? null;
}

/** A target's links, in the order of its text (tests and the post's details). */
export function listTargetLinks(db: Db, organizationId: string, targetId: string) {
  return db
    .select()
    .from(shortLinks)
    .where(and(eq(shortLinks.organizationId, organizationId), eq(shortLinks.targetId, targetId)))
    .orderBy(shortLinks.position);
}

/** Whether a run of this target has made short links for its text. */
export async function targetHasLinks(db: Db, organizationId: string, targetId: string) {
  const [row] = await db
    .select({ id: shortLinks.targetId })
    .from(shortLinks)
    .where(and(eq(shortLinks.organizationId, organizationId), eq(shortLinks.targetId, targetId)))
    .limit(1);
  return row !== undefined;
}
