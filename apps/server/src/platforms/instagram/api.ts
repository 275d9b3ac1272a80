import type { GraphApi } from '../meta/api.js';
import { INSTAGRAM_PAGE_LIST_LIMIT } from './limits.js';

/** A Page with its linked Instagram professional account, as `/me/accounts` lists it. */
export interface PageWithInstagram {
  id: string;
  name?: string;
  access_token?: string;
  instagram_business_account?: { id: string };
}

/** The IG User node (§10.1). */
export interface InstagramUser {
  id: string;
  username?: string;
  name?: string;
  profile_picture_url?: string;
}

const PAGE_FIELDS = 'id,name,access_token,instagram_business_account';
const IG_USER_FIELDS = 'id,username,name,profile_picture_url';

/** Pages of the signed-in user that have an Instagram professional account linked. */
export async function listPagesWithInstagram(api: GraphApi, userToken: string) {
  const pages = await api.listPages<PageWithInstagram>(
    userToken,
    PAGE_FIELDS,
    INSTAGRAM_PAGE_LIST_LIMIT,
  );
  return pages.filter((page) => page.instagram_business_account?.id);
}

export const getInstagramUser = (api: GraphApi, igUserId: string, userToken: string) =>
  api.getNode<InstagramUser>(igUserId, userToken, IG_USER_FIELDS);
