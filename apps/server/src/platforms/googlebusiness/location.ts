import { PlatformError } from '../errors.js';

/** `locations/123` → `123`. */
export const locationIdOf = (name: string) => name.replace(/^locations\//, '');

/** Where a connected location's calls go: the v4 parent `accounts/{a}/locations/{l}`. */
export function v4ParentOf(account: { externalId: string; extra: Record<string, unknown> }) {
  const owner = typeof account.extra.accountName === 'string' ? account.extra.accountName : null;
  if (!owner)
    throw new PlatformError(
      'reauth',
      'Herald does not know which Business Profile account manages this location. Reconnect it.',
    );
  return `${owner}/locations/${account.externalId}`;
}
