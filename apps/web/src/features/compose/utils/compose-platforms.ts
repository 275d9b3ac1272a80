import type { Integration, MediaConstraints, Platform } from '@herald/contract';

/** The account a post goes out as on one network (from the integration's metadata). */
export interface ComposeAccount {
  name: string;
  username: string | null;
  pictureUrl: string | null;
}

/** One network the organization can post to: a tile in the picker and a target of the post. */
export interface ComposePlatform {
  /** The Platform id: what the create call's `platformIds` and `platformMedia` name. */
  id: string;
  name: string;
  /** The network's rules; null when the supported list does not know the network. */
  constraints: MediaConstraints | null;
  accounts: ComposeAccount[];
}

function accountOf(integration: Integration): ComposeAccount {
  const { name, username, pictureUrl } = integration.metadata;
  const handle = username?.trim().replace(/^@/, '') || null;
  return {
    name: name?.trim() || handle || integration.platformAccountId,
    username: handle,
    pictureUrl,
  };
}

/**
 * One entry per network with at least one working account, in the order the accounts were
 * listed. Posts name networks, not accounts, so two accounts of one network make one tile.
 * Networks operators switched off are left out: the server would refuse them.
 */
export function composePlatforms(
  integrations: readonly Integration[],
  supported: readonly Platform[],
): ComposePlatform[] {
  const byId = new Map<string, ComposePlatform>();
  for (const integration of integrations) {
    if (integration.status !== 'CONNECTED') continue;
    const known = supported.find((platform) => platform.id === integration.platform.id);
    if (known && !known.isActive) continue;
    const entry = byId.get(integration.platform.id) ?? {
      id: integration.platform.id,
      name: integration.platform.name,
      constraints: known?.mediaConstraints ?? null,
      accounts: [],
    };
    entry.accounts.push(accountOf(integration));
    byId.set(entry.id, entry);
  }
  return [...byId.values()];
}

export type Network = 'x' | 'instagram' | 'facebook' | 'threads' | 'tiktok' | 'linkedin' | 'other';

/** Which network's look a preview takes, from the platform's name. */
export function networkOf(platformName: string): Network {
  const name = platformName.trim().toLowerCase();
  if (name === 'x' || name === 'twitter') return 'x';
  if (
    name === 'instagram' ||
    name === 'facebook' ||
    name === 'threads' ||
    name === 'tiktok' ||
    name === 'linkedin'
  ) {
    return name;
  }
  return 'other';
}
