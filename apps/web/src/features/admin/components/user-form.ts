import type { User } from '@herald/contract';
import type { UserChanges } from '../api/users';

export interface UserFormValues {
  displayName: string;
  avatarUrl: string;
  timezone: string;
}

export type UserFormErrors = Partial<Record<keyof UserFormValues, string>>;

export const DISPLAY_NAME_REQUIRED = 'Display name is required.';
export const AVATAR_NOT_A_URL = 'Enter a web address starting with http:// or https://.';

export function userToForm(user: User): UserFormValues {
  return {
    displayName: user.displayName ?? '',
    avatarUrl: user.avatarUrl ?? '',
    timezone: user.timezone ?? '',
  };
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The same rules as the server's (a non-blank name, a web address, a known zone from the list),
 * checked before sending. An empty picture clears it; an unset zone stays unset.
 */
export function validateUserForm(
  values: UserFormValues,
): { errors: UserFormErrors; changes: null } | { errors: null; changes: UserChanges } {
  const errors: UserFormErrors = {};
  const displayName = values.displayName.trim();
  const avatarUrl = values.avatarUrl.trim();
  if (!displayName) errors.displayName = DISPLAY_NAME_REQUIRED;
  if (avatarUrl && !isWebAddress(avatarUrl)) errors.avatarUrl = AVATAR_NOT_A_URL;
  if (Object.keys(errors).length > 0) return { errors, changes: null };
  return {
    errors: null,
    changes: {
      displayName,
      avatarUrl: avatarUrl || null,
      ...(values.timezone ? { timezone: values.timezone } : {}),
    },
  };
}
