import { and, eq, gt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { members, organizations, roles, users } from '../../db/schema.js';

export async function findMemberByEmail(db: Db, organizationId: string, email: string) {
  const [row] = await db
    .select()
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        sql`lower(${members.email}) = ${email.toLowerCase()}`,
      ),
    );
  return row ?? null;
}

export interface InvitationValues {
  organizationId: string;
  email: string;
  roleId: string;
  permissions: string[] | null;
  invitedByUserId: string;
  inviteTokenHash: string;
  inviteExpiresAt: Date;
}

/** Creates the PENDING member, or renews an expired, declined or former one of the same email. */
export async function upsertInvitation(
  db: Db,
  values: InvitationValues,
  existingId: string | null,
) {
  const fields = {
    ...values,
    status: 'PENDING' as const,
    invitedAt: new Date(),
    userId: null,
    joinedAt: null,
  };
  if (existingId) {
    const [row] = await db
      .update(members)
      .set(fields)
      .where(eq(members.id, existingId))
      .returning();
    return row!;
  }
  const [row] = await db.insert(members).values(fields).returning();
  return row!;
}

const inviter = alias(users, 'inviter');

const invitationSelection = {
  member: members,
  organization: { id: organizations.id, name: organizations.name },
  role: { id: roles.id, name: roles.name },
  inviter: { email: inviter.email, displayName: inviter.displayName },
};

function invitationQuery(db: Db) {
  return db
    .select(invitationSelection)
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .leftJoin(roles, eq(roles.id, members.roleId))
    .leftJoin(inviter, eq(inviter.id, members.invitedByUserId));
}

export function listPendingForEmail(db: Db, email: string, now: Date) {
  return invitationQuery(db).where(
    and(
      eq(members.status, 'PENDING'),
      sql`lower(${members.email}) = ${email.toLowerCase()}`,
      gt(members.inviteExpiresAt, now),
    ),
  );
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string) {
  const [row] = await invitationQuery(db).where(eq(members.inviteTokenHash, tokenHash));
  return row ?? null;
}

export async function findInvitationById(db: Db, id: string) {
  const [row] = await invitationQuery(db).where(eq(members.id, id));
  return row ?? null;
}

/** PENDING → ACTIVE, guarded so two accepts of one token cannot both win. */
export async function markAccepted(db: Db, memberId: string, userId: string) {
  const rows = await db
    .update(members)
    .set({ status: 'ACTIVE', userId, joinedAt: new Date() })
    .where(and(eq(members.id, memberId), eq(members.status, 'PENDING')))
    .returning({ id: members.id });
  return rows.length === 1;
}

export async function markDeclined(db: Db, memberId: string) {
  const rows = await db
    .update(members)
    .set({ status: 'DECLINED' })
    .where(and(eq(members.id, memberId), eq(members.status, 'PENDING')))
    .returning({ id: members.id });
  return rows.length === 1;
}

/** The organization's pending invitation with this id (expired ones included), or null. */
export async function findPendingInOrganization(db: Db, organizationId: string, memberId: string) {
  const [row] = await invitationQuery(db).where(
    and(
      eq(members.id, memberId),
      eq(members.organizationId, organizationId),
      eq(members.status, 'PENDING'),
    ),
  );
  return row ?? null;
}

/** Gives a pending invitation a new token: the previous one no longer matches any invitation. */
export async function replaceToken(
  db: Db,
  memberId: string,
  values: { inviteTokenHash: string; inviteExpiresAt: Date },
) {
  const rows = await db
    .update(members)
    .set(values)
    .where(and(eq(members.id, memberId), eq(members.status, 'PENDING')))
    .returning({ id: members.id });
  return rows.length === 1;
}
