import {
  constraintsForAccount,
  type Integration,
  type MediaConstraints,
  type Platform,
} from '@herald/contract';

/** The account a post goes out as on one network (from the integration's metadata). */
export interface ComposeAccount {
  name: string;
  username: string | null;
  pictureUrl: string | null;
}

/**
 * One connected account the organization can post from: a tile in the picker and a target of
 * the post. Two accounts of one network are two entries, chosen and customized apart.
 */
export interface ComposePlatform {
  /** The account's (integration's) id: what `integrationIds`, per-account texts and `platformMedia` name. */
  id: string;
  /** The network's Platform id. */
  platformId: string;
  /** The network's name ("Facebook"). */
  name: string;
  /**
   * How the form names this target: the network's name, or "Facebook (Page name)" when several
   * accounts of that network are connected.
   */
  label: string;
  /**
   * The network's rules, with the account's own text limit where it has one (an X Premium
   * subscriber's 25,000); null when the supported list does not know the network.
   */
  constraints: MediaConstraints | null;
  account: ComposeAccount;
  /** The one account, as a list (the publish-now confirmation lists accounts). */
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
 * One entry per working account, grouped by network in the order the networks were listed.
 * Networks operators switched off are left out: the server would refuse them.
 */
export function composePlatforms(
  integrations: readonly Integration[],
  supported: readonly Platform[],
): ComposePlatform[] {
  const usable = integrations.filter((integration) => {
    if (integration.status !== 'CONNECTED') return false;
    const known = supported.find((platform) => platform.id === integration.platform.id);
    return !known || known.isActive;
  });
  const networks = [...new Set(usable.map((i) => i.platform.id))];
  return networks.flatMap((platformId) => {
    const ofNetwork = usable.filter((i) => i.platform.id === platformId);
    const known = supported.find((platform) => platform.id === platformId);
    return ofNetwork.map((integration) => {
      const account = accountOf(integration);
      const name = integration.platform.name;
      return {
        id: integration.id,
        platformId,
        name,
        label: ofNetwork.length > 1 ? `${name} (${account.name})` : name,
        // The account's own text limit (X Premium's long posts) for the counter, preview and checks.
        constraints: constraintsForAccount(known?.mediaConstraints ?? null, integration.textLimit),
        account,
        accounts: [account],
      };
    });
  });
}
