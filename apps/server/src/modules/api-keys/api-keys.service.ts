import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PATTERN,
  PERMISSION_NAMES,
  type ApiKey,
  type CreateApiKeyRequestSchema,
} from '@herald/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { ApiKeyCaller, AuthContext } from '../../http/access.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { assertCanGrant } from '../team/grants.js';
import { loadMembership, type MembershipContext } from '../team/membership.js';
import * as repo from './api-keys.repository.js';

type CreateInput = z.output<typeof CreateApiKeyRequestSchema>;

/**
 * A key's use is written at most this often per key: every request reads the key (revocation
 * counts at once) but a busy integration must not turn each of its reads into a write.
 */
export const LAST_USED_EVERY_MS = 60_000;

/** The hash a key is stored and found by. The key holds 256 random bits: SHA-256 suffices. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key: `hrld_<8 hex>_<43 base64url>`, the prefix part visible in lists. */
function mintKey(): { key: string; prefix: string } {
  const prefix = `hrld_${randomBytes(4).toString('hex')}`;
  return { key: `${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

function toApiKeyDto(row: repo.ApiKeyRow, creatorEmail: string | null): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions,
    createdBy: { id: row.createdByUserId, email: creatorEmail },
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Keys do not make or revoke keys: a leaked key must not be able to outlive its revocation. */
function refuseKeyCaller(auth: AuthContext) {
  if (auth.apiKey)
    throw new AppError(
      'FORBIDDEN',
      'API keys cannot create or revoke API keys. Sign in to Herald to manage keys.',
    );
}

const actorOf = (auth: AuthContext): AuditActor => ({ id: auth.user.id, email: auth.user.email });
const auditLabel = (row: repo.ApiKeyRow, member: MembershipContext) =>
  `API key “${row.name}” (${row.prefix}) of ${member.organizationName}`;

/**
 * Makes a key for the caller's organization with permissions the caller holds (the rule roles
 * and invitations follow); answers the key itself, which is not kept, and its record.
 */
export async function createApiKey(
  db: Db,
  member: MembershipContext,
  auth: AuthContext,
  input: CreateInput,
  now: Date,
): Promise<{ key: string; apiKey: ApiKey }> {
  refuseKeyCaller(auth);
  assertCanGrant(member, null, input.permissions);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now)
    throw new AppError('VALIDATION_FAILED', 'The expiry date must be in the future.');
  const { key, prefix } = mintKey();
  const permissions = PERMISSION_NAMES.filter((p) => input.permissions.includes(p));
  const row = await db.transaction(async (tx) => {
    const created = await repo.insertApiKey(tx, {
      organizationId: member.organizationId,
      name: input.name,
      prefix,
      keyHash: hashApiKey(key),
      permissions,
      createdByUserId: auth.user.id,
      expiresAt,
    });
    await recordAudit(tx, actorOf(auth), {
      action: 'api_key.create',
      target: { type: 'api_key', id: created.id, label: auditLabel(created, member) },
      before: null,
      after: {
        organizationId: member.organizationId,
        name: created.name,
        prefix,
        permissions,
        expiresAt: expiresAt?.toISOString() ?? null,
      },
    });
    return created;
  });
  return { key, apiKey: toApiKeyDto(row, auth.user.email) };
}

/** The organization's keys that still work or only expired (revoked ones are gone). */
export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKey[]> {
  const rows = await repo.listLiveApiKeys(db, organizationId);
  return rows.map((r) => toApiKeyDto(r.key, r.creatorEmail));
}

/** Revokes a key: the next request with it, to any process, is refused. */
export async function revokeApiKey(
  db: Db,
  member: MembershipContext,
  auth: AuthContext,
  keyId: string,
  now: Date,
): Promise<void> {
  refuseKeyCaller(auth);
  await db.transaction(async (tx) => {
    const revoked = await repo.revokeApiKey(tx, member.organizationId, keyId, now);
    if (!revoked) throw new AppError('NOT_FOUND', 'This API key does not exist or was revoked.');
    await recordAudit(tx, actorOf(auth), {
      action: 'api_key.revoke',
      target: { type: 'api_key', id: revoked.id, label: auditLabel(revoked, member) },
      before: { revokedAt: null },
      after: { revokedAt: now.toISOString() },
    });
  });
}

const INVALID = 'This API key is not valid. Check that it was copied whole, or create a new one.';

/**
 * Resolves `Authorization: Bearer <key>` on a route of organization `orgId` (null: of the key's
 * own organization, the MCP endpoint) to the user it acts
 * as (its creator, with `apiKey` set) and a membership whose permissions are the key's, narrowed
 * to what the creator holds there now. Reads the database on every call, so a revocation or a
 * change to the creator's role counts on every process from the next request. Throws
 * UNAUTHENTICATED for a wrong, expired or revoked key and FORBIDDEN for another organization.
 */
export function apiKeyAuthenticator(db: Db, now: () => Date): ApiKeyCaller {
  /** When this process last wrote each key's use: most requests then skip the write. */
  const touched = new Map<string, number>();
  return async (token, orgId) => {
    if (!API_KEY_PATTERN.test(token)) throw new AppError('UNAUTHENTICATED', INVALID);
    const found = await repo.findApiKeyByHash(db, hashApiKey(token));
    if (!found) throw new AppError('UNAUTHENTICATED', INVALID);
    const { key, user } = found;
    const at = now();
    if (key.revokedAt)
      throw new AppError(
        'UNAUTHENTICATED',
        'This API key was revoked. Ask a manager of the organization for a new one.',
      );
    if (key.expiresAt && key.expiresAt <= at)
      throw new AppError(
        'UNAUTHENTICATED',
        `This API key expired on ${key.expiresAt.toISOString()}. Create a new one in Settings.`,
      );
    if (orgId !== null && key.organizationId !== orgId)
      throw new AppError(
        'FORBIDDEN',
        'This API key belongs to another organization; it works only on its own.',
      );
    const membership = await loadMembership(db, key.organizationId, user.id);
    if (!membership)
      throw new AppError(
        'UNAUTHENTICATED',
        'The person who created this API key is no longer a member of this organization, so the key no longer works.',
      );
    const since = at.getTime() - LAST_USED_EVERY_MS;
    if ((touched.get(key.id) ?? -Infinity) < since) {
      if (touched.size > 10_000) touched.clear();
      touched.set(key.id, at.getTime());
      await repo.touchLastUsed(db, key.id, at, new Date(since));
    }
    return {
      // Acting as its creator, never as an operator: keys stay out of the back-office.
      auth: {
        user: { ...user, isAdmin: false },
        sessionId: key.id,
        apiKey: { id: key.id, name: key.name, prefix: key.prefix },
      },
      member: {
        ...membership,
        permissions: membership.permissions.filter((p) => key.permissions.includes(p)),
      },
    };
  };
}
