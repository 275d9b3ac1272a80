import {
  MediaConstraintsSchema,
  type Platform,
  type PublicMediaUrlFinding,
  platformSlug,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { publicMediaUrlFinding } from '../../platforms/public-media-url.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import * as repo from './platforms.repository.js';

export type { PlatformRow } from './platforms.repository.js';

function toPlatformDto(p: repo.PlatformRow, networks: Map<string, NetworkRuntime>): Platform {
  const network = networks.get(platformSlug(p.name));
  const parsed = MediaConstraintsSchema.safeParse(p.mediaConstraints);
  return {
    id: p.id,
    name: p.name,
    isActive: p.isActive,
    createdAt: p.createdAt.toISOString(),
    mediaConstraints: parsed.success ? parsed.data : {},
    sandbox: network?.sandbox ?? false,
    connectable: Boolean(network),
    // Signing in on the account's own server is offered where Herald can be an OAuth client there.
    ...(network?.adapter.connectWithPassword
      ? { offersSignInPage: Boolean(network.adapter.oauthDocuments?.()) }
      : {}),
    ...(network?.kinds.length
      ? {
          connectKinds: network.kinds.map((k) => ({
            kind: k.kind,
            label: k.label,
            description: k.description,
            requirement: k.requirement,
            sandbox: k.sandbox,
          })),
        }
      : {}),
  };
}

export async function listPlatforms(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  onlyActive: boolean,
) {
  return (await repo.listPlatforms(db, onlyActive)).map((p) => toPlatformDto(p, networks));
}

/**
 * The back-office's copy of the start-up warning about media URLs: the networks operators offer
 * (active) that fetch media by URL, when API_PUBLIC_URL is not public https.
 */
export async function getPublicMediaUrlFinding(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  apiPublicUrl: string,
): Promise<PublicMediaUrlFinding | null> {
  const active = new Set((await repo.listPlatforms(db, true)).map((p) => platformSlug(p.name)));
  return publicMediaUrlFinding(
    apiPublicUrl,
    [...networks.values()].filter((n) => active.has(n.slug)),
  );
}

/** `POST /platforms` (operators): a new network name and its media rules, audited. */
export async function createPlatform(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  input: { name: string; mediaConstraints: Record<string, unknown> },
  actor: AuditActor,
) {
  return db.transaction(async (tx) => {
    if (await repo.findPlatformByName(tx, input.name)) {
      throw new AppError('CONFLICT', `A platform named ${input.name} already exists.`);
    }
    const row = await repo.insertPlatform(tx, input);
    await recordAudit(tx, actor, {
      action: 'platform.create',
      target: { type: 'platform', id: row.id, label: row.name },
      before: null,
      after: { name: row.name, isActive: row.isActive, mediaConstraints: row.mediaConstraints },
    });
    return toPlatformDto(row, networks);
  });
}

/** `PUT /platforms/{id}/activate|deactivate` (operators): audited when the status changes. */
export async function setActive(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  id: string,
  isActive: boolean,
  actor: AuditActor,
) {
  return db.transaction(async (tx) => {
    const before = await repo.findPlatform(tx, id);
    const row = before && (await repo.setPlatformActive(tx, id, isActive));
    if (!before || !row) throw new AppError('NOT_FOUND', 'This platform does not exist.');
    await recordAudit(tx, actor, {
      action: isActive ? 'platform.activate' : 'platform.deactivate',
      target: { type: 'platform', id: row.id, label: row.name },
      before: { isActive: before.isActive },
      after: { isActive: row.isActive },
    });
    return toPlatformDto(row, networks);
  });
}

/** The stored networks (only those operators offer with `onlyActive`), as rows. */
export const listPlatformRows = (db: Db, onlyActive: boolean) => repo.listPlatforms(db, onlyActive);

export const findPlatform = (db: Db, id: string) => repo.findPlatform(db, id);

/** The network stored under this name (any case), or null. */
export const findPlatformByName = (db: Db, name: string) => repo.findPlatformByName(db, name);
