import { useSyncExternalStore } from 'react';
import { readStorage, storageKeys, writeStorage } from './storage';

/**
 * The organization the user works in. It is browser state (docs/product.md#user-and-organization: kept in localStorage),
 * shared by every feature, so it lives here and not in a feature; components re-render
 * through useSyncExternalStore when it changes, also from another tab.
 */
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

export function getCurrentOrgId(): string | null {
  return readStorage(storageKeys.currentOrgId) || null;
}

export function setCurrentOrgId(orgId: string | null): void {
  if (getCurrentOrgId() === orgId) return;
  writeStorage(storageKeys.currentOrgId, orgId);
  notify();
}

export function clearCurrentOrgId(): void {
  setCurrentOrgId(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.currentOrgId || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useCurrentOrgId(): string | null {
  return useSyncExternalStore(subscribe, getCurrentOrgId, () => null);
}
