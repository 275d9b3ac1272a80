import { MediaConstraintsSchema, type Platform } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import * as repo from './platforms.repository.js';

export function toPlatformDto(
  p: repo.PlatformRow,
  networks: Map<string, NetworkRuntime>,
): Platform {
  const network = networks.get(p.name.toLowerCase());
  const parsed = MediaConstraintsSchema.safeParse(p.mediaConstraints);
  return {
    id: p.id,
    name: p.name,
    isActive: p.isActive,
    createdAt: p.createdAt.toISOString(),
    mediaConstraints: parsed.success ? parsed.data : {},
    sandbox: network?.sandbox ?? false,
    connectable: Boolean(network),
  };
}

export async function listPlatforms(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  onlyActive: boolean,
) {
  return (await repo.listPlatforms(db, onlyActive)).map((p) => toPlatformDto(p, networks));
}

export async function createPlatform(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  input: { name: string; mediaConstraints: Record<string, unknown> },
) {
  if (await repo.findPlatformByName(db, input.name)) {
    throw new AppError('CONFLICT', `A platform named ${input.name} already exists.`);
  }
  return toPlatformDto(await repo.insertPlatform(db, input), networks);
}

export async function setActive(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  id: string,
  isActive: boolean,
) {
  const row = await repo.setPlatformActive(db, id, isActive);
  if (!row) throw new AppError('NOT_FOUND', 'This platform does not exist.');
  return toPlatformDto(row, networks);
}
