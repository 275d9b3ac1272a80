/** Keys of everything the SPA keeps in localStorage (listed in the cookie policy). */
export const storageKeys = {
  currentOrgId: 'herald.currentOrgId',
  cookieConsent: 'herald.cookieConsent',
  roleColors: 'herald.roleColors',
  libraryView: 'herald.libraryView',
  calendarView: 'herald.calendarView',
  inboxNotices: 'herald.inboxNotices',
  recentOrganizations: 'herald.recentOrganizations',
} as const;

type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

// localStorage throws in some privacy modes and sandboxed iframes; the app must still work,
// it only forgets the value on reload.
export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Ignored on purpose: see readStorage.
  }
}
