import type { GraphApi } from '../meta/api.js';
import { FACEBOOK_PAGE_LIST_LIMIT } from './limits.js';

/** A Page as `/me/accounts` lists it (§3.1, §10.1). */
export interface FacebookPage {
  id: string;
  name?: string;
  access_token?: string;
  picture?: { data?: { url?: string } };
  /** What the user may do on the Page: CREATE_CONTENT, MODERATE, ANALYZE, MANAGE… */
  tasks?: string[];
}

const PAGE_FIELDS = 'id,name,access_token,picture{url},tasks';

/** The Pages the signed-in user manages, each with its Page token. */
export const listManagedPages = (api: GraphApi, userToken: string) =>
  api.listPages<FacebookPage>(userToken, PAGE_FIELDS, FACEBOOK_PAGE_LIST_LIMIT);
