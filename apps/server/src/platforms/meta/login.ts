import { expiresIn } from '../oauth.js';
import type { CodeExchangeInput } from '../types.js';
import type { GraphApi } from './api.js';
import { isMetaTokenRejected } from './errors.js';

export interface MetaLogin {
  /** The long-lived user token (~60 days). */
  userToken: string;
  userTokenExpiresAt: Date | null;
  /** Permissions the person granted. */
  scopes: string[];
  /**
   * The person's app-scoped Facebook user id: every account of one login shares it, and
   * revoking removes Herald from all of them.
   */
  facebookUserId: string;
}

/** Facebook Login for Business: code → short-lived → long-lived user token (docs/networks.md#instagram-oauth). */
export async function signInWithCode(api: GraphApi, input: CodeExchangeInput): Promise<MetaLogin> {
  const short = await api.exchangeCode(input.code, input.redirectUri);
  const long = await api.exchangeForLongLived(short.access_token);
  const scopes = await api.grantedPermissions(long.access_token);
  const me = await api.getNode<{ id: string }>('me', long.access_token, 'id');
  return {
    userToken: long.access_token,
    userTokenExpiresAt: expiresIn(long.expires_in),
    scopes,
    facebookUserId: me.id,
  };
}

/** Revokes the login; a token Meta already refuses (190) means there is nothing left to revoke. */
export async function revokeMetaLogin(api: GraphApi, userToken: string | undefined) {
  if (!userToken) return;
  try {
    await api.revokeApp(userToken);
  } catch (err) {
    if (!isMetaTokenRejected(err)) throw err;
  }
}
