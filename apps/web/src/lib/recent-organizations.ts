import { readStorage, storageKeys, writeStorage } from './storage';

/**
 * The organizations a user switched to most recently, newest first, kept in the browser: the
 * organization switcher offers them above the full list.
 */
const RECENT_MAX = 5;

export function recentOrganizationIds(): string[] {
  try {
    const ids: unknown = JSON.parse(readStorage(storageKeys.recentOrganizations) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberOrganization(id: string): void {
  const ids = [id, ...recentOrganizationIds().filter((known) => known !== id)];
  writeStorage(storageKeys.recentOrganizations, JSON.stringify(ids.slice(0, RECENT_MAX)));
}
