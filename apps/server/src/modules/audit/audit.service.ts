import type { AuditAction, AuditEntry, AuditTargetType } from '@herald/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { requireUser } from '../../http/access.js';
import * as repo from './audit.repository.js';

/**
 * Who did it: a signed-in user, or null for the command line (`herald admin grant|revoke`),
 * which has no account behind it. A client deciding through an approval link has no account
 * either: `id` is null and `email` names them as the link does.
 */
export type AuditActor = {
  id: string | null;
  email: string;
  /** The API key the user acted through: the user is the key's creator (docs/api.md). */
  apiKeyId?: string | null;
} | null;

/** The signed-in caller of a route, as the audit log names them (with their API key, if any). */
export function actorOf(request: FastifyRequest): AuditActor {
  const { user, apiKey } = requireUser(request);
  return { id: user.id, email: user.email, apiKeyId: apiKey?.id ?? null };
}

type Fields = Record<string, unknown>;

export interface AuditChange {
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null; label: string };
  /** The record before the action; null when it creates one. */
  before: Fields | null;
  after: Fields | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Keeps only the fields that changed, so an entry reads as "name: Basic → Team" rather than two
 * copies of the whole record. A creation (no `before`) keeps every field.
 */
function changedFields(
  before: Fields | null,
  after: Fields | null,
): { before: Fields | null; after: Fields | null } | null {
  if (!before || !after) return { before, after };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => !same(before[key], after[key]),
  );
  if (keys.length === 0) return null;
  const pick = (fields: Fields) => Object.fromEntries(keys.map((k) => [k, fields[k] ?? null]));
  return { before: pick(before), after: pick(after) };
}

/**
 * Writes one operator action to the audit log. Call it with the transaction that made the
 * change, so a change is never without its entry (nor an entry without its change). An action
 * that changed nothing is not recorded.
 */
export async function recordAudit(db: Db, actor: AuditActor, change: AuditChange): Promise<void> {
  const fields = changedFields(change.before, change.after);
  if (!fields) return;
  await repo.insertAuditEntry(db, {
    actorUserId: actor?.id ?? null,
    actorEmail: actor?.email ?? null,
    actorApiKeyId: actor?.apiKeyId ?? null,
    action: change.action,
    targetType: change.target.type,
    targetId: change.target.id,
    targetLabel: change.target.label,
    before: fields.before,
    after: fields.after,
  });
}

function toAuditEntryDto(row: repo.AuditRow): AuditEntry {
  return {
    id: row.id,
    actor:
      row.actorEmail === null
        ? null
        : { id: row.actorUserId, email: row.actorEmail, apiKeyId: row.actorApiKeyId },
    action: row.action,
    target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The audit log, newest first, a page at a time. */
export async function listAuditLog(db: Db, page: number, pageSize: number) {
  const { rows, totalCount } = await repo.listAuditEntries(db, page, pageSize);
  return { entries: rows.map(toAuditEntryDto), meta: { page, pageSize, totalCount } };
}
