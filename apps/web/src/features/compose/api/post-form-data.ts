import {
  CreatePostFieldsSchema,
  EditPostFieldsSchema,
  type CreatePostAction,
  type EditPostFields,
  type FollowUpsByAccount,
  type LinkTracking,
  type GbpPostSettings,
  type MastodonPostSettings,
  type PostContent,
  type TikTokPostSettings,
  type YouTubePostSettings,
  type PinterestPostSettings,
} from '@herald/contract';
import type { LibraryPick } from '../utils/media-files';

/** A new file of the post: chosen in this browser (uploaded), or taken from the media library. */
export type NewFile = File | LibraryPick;

const isLibraryPick = (file: NewFile): file is LibraryPick => 'libraryId' in file;

/** A post ready to send: the contract's text fields, and the files shared or per account. */
export interface PostDraft {
  /** The accounts (integrations) it goes out from. */
  integrationIds: string[];
  content: PostContent;
  /** 'queue': Add to queue (the server picks the next free slot). */
  action: CreatePostAction | 'queue';
  /** ISO instant; only when scheduling. */
  scheduledAt?: string;
  title?: string;
  sharedFiles: NewFile[];
  /** Files for one account only, by integration id. */
  platformFiles: Record<string, NewFile[]>;
  /**
   * Editing: the post's stored files that stay, shared ones and each account's own (by the
   * server's file id). Absent when creating.
   */
  keep?: { shared: string[]; platform: Record<string, string[]> };
  /** Each TikTok account's settings, by integration id (docs/networks.md#tiktok-conformance). */
  tiktok?: Record<string, TikTokPostSettings>;
  /** Each Mastodon account's content warning, visibility and language, by integration id. */
  mastodon?: Record<string, MastodonPostSettings>;
  /** Each YouTube account's settings, by integration id (docs/networks.md#youtube-publishing). */
  youtube?: Record<string, YouTubePostSettings>;
  /** Each Google Business Profile location's post type, event, offer and button, by integration id. */
  googleBusiness?: Record<string, GbpPostSettings>;
  /** Each Pinterest account's board, title and link, by integration id. */
  pinterest?: Record<string, PinterestPostSettings>;
  /** Each account's further thread parts and first comment (docs/product.md#threads-and-first-comments). */
  followUps?: FollowUpsByAccount;
  /** docs/product.md#alt-text: each file's alt text, by the chosen File or a kept file's id. */
  altTexts?: Map<NewFile | string, string>;
  /** docs/product.md#link-tracking: the post's UTM parameters (null: none). */
  linkTracking?: LinkTracking | null;
  /** docs/analytics.md#short-links: links as Herald's short links (left out: the organization's). */
  shortLinks?: boolean;
}

/**
 * The multipart body of `POST /organizations/{orgId}/post` (and, with `keep`, of the edit's
 * `PUT /organizations/{orgId}/post/{postId}`). Text fields come first so the server
 * can refuse a bad request before reading megabytes of files; files follow, shared ones first,
 * and `platformMedia` lists each account's own files by their index among all new files. Files
 * from the media library take their index in `libraryMedia` instead of being uploaded.
 * The fields are checked against the contract's schema before anything is sent.
 */
export function buildPostFormData(draft: PostDraft): FormData {
  const files: NewFile[] = [...draft.sharedFiles];
  // Editing names the stored files an account keeps by id, before its new files' indexes.
  const platformMedia: Record<string, Array<number | string>> = {};
  for (const integrationId of draft.integrationIds) {
    const own = draft.platformFiles[integrationId] ?? [];
    const kept = draft.keep?.platform[integrationId] ?? [];
    if (own.length === 0 && kept.length === 0) continue;
    platformMedia[integrationId] = [...kept, ...own.map((_, index) => files.length + index)];
    files.push(...own);
  }
  const keepMediaIds = draft.keep
    ? [...new Set([...draft.keep.shared, ...Object.values(draft.keep.platform).flat()])]
    : undefined;

  // Alt texts by a new file's index or a kept file's id; editing sends them all (none: cleared).
  const altTexts: Record<string, string> = {};
  files.forEach((file, index) => {
    const text = draft.altTexts?.get(file)?.trim();
    if (text) altTexts[String(index)] = text;
  });
  for (const id of keepMediaIds ?? []) {
    const text = draft.altTexts?.get(id)?.trim();
    if (text) altTexts[id] = text;
  }
  const sendAltTexts = Boolean(keepMediaIds) || Object.keys(altTexts).length > 0;
  const libraryMedia: Record<string, string> = {};
  files.forEach((file, index) => {
    if (isLibraryPick(file)) libraryMedia[String(index)] = file.libraryId;
  });

  const title = draft.title?.trim();
  const candidate = {
    integrationIds: draft.integrationIds,
    content: draft.content,
    ...(draft.scheduledAt ? { scheduledAt: draft.scheduledAt } : {}),
    action: draft.action,
    ...(title ? { title } : {}),
    ...(Object.keys(platformMedia).length > 0 ? { platformMedia } : {}),
    ...(keepMediaIds ? { keepMediaIds } : {}),
    ...(draft.tiktok && Object.keys(draft.tiktok).length > 0 ? { tiktok: draft.tiktok } : {}),
    ...(draft.mastodon && Object.keys(draft.mastodon).length > 0
      ? { mastodon: draft.mastodon }
      : {}),
    ...(draft.youtube && Object.keys(draft.youtube).length > 0 ? { youtube: draft.youtube } : {}),
    ...(draft.googleBusiness && Object.keys(draft.googleBusiness).length > 0
      ? { googleBusiness: draft.googleBusiness }
      : {}),
    ...(draft.pinterest && Object.keys(draft.pinterest).length > 0
      ? { pinterest: draft.pinterest }
      : {}),
    ...(draft.followUps && Object.keys(draft.followUps).length > 0
      ? { followUps: draft.followUps }
      : {}),
    ...(sendAltTexts ? { altTexts } : {}),
    ...(Object.keys(libraryMedia).length > 0 ? { libraryMedia } : {}),
    ...(draft.linkTracking !== undefined ? { linkTracking: draft.linkTracking } : {}),
    ...(draft.shortLinks !== undefined ? { shortLinks: draft.shortLinks } : {}),
  };
  const fields: EditPostFields = keepMediaIds
    ? EditPostFieldsSchema.parse(candidate)
    : CreatePostFieldsSchema.parse(candidate);

  const form = new FormData();
  form.append('integrationIds', JSON.stringify(fields.integrationIds ?? []));
  form.append(
    'content',
    typeof fields.content === 'string' ? fields.content : JSON.stringify(fields.content),
  );
  if (fields.scheduledAt) form.append('scheduledAt', fields.scheduledAt);
  if (fields.action) form.append('action', fields.action);
  if (fields.title) form.append('title', fields.title);
  if (fields.platformMedia) form.append('platformMedia', JSON.stringify(fields.platformMedia));
  if (fields.keepMediaIds) form.append('keepMediaIds', JSON.stringify(fields.keepMediaIds));
  if (fields.tiktok) form.append('tiktok', JSON.stringify(fields.tiktok));
  if (fields.mastodon) form.append('mastodon', JSON.stringify(fields.mastodon));
  if (fields.youtube) form.append('youtube', JSON.stringify(fields.youtube));
  if (fields.googleBusiness) form.append('googleBusiness', JSON.stringify(fields.googleBusiness));
  if (fields.pinterest) form.append('pinterest', JSON.stringify(fields.pinterest));
  if (fields.followUps) form.append('followUps', JSON.stringify(fields.followUps));
  if (fields.altTexts) form.append('altTexts', JSON.stringify(fields.altTexts));
  if (fields.libraryMedia) form.append('libraryMedia', JSON.stringify(fields.libraryMedia));
  if (fields.linkTracking !== undefined)
    form.append('linkTracking', JSON.stringify(fields.linkTracking));
  if (fields.shortLinks !== undefined && fields.shortLinks !== null)
    form.append('shortLinks', JSON.stringify(fields.shortLinks));
  for (const file of files) if (!isLibraryPick(file)) form.append('media', file);
  return form;
}
