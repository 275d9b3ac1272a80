import {
  CreatePostFieldsSchema,
  type CreatePostAction,
  type CreatePostFields,
  type PostContent,
} from '@herald/contract';

/** A post ready to send: the contract's text fields, and the files shared or per network. */
export interface PostDraft {
  platformIds: string[];
  content: PostContent;
  action: CreatePostAction;
  /** ISO instant; only when scheduling. */
  scheduledAt?: string;
  title?: string;
  sharedFiles: File[];
  /** Files for one network only, by platform id. */
  platformFiles: Record<string, File[]>;
}

/**
 * The multipart body of `POST /organizations/{orgId}/post`. Text fields come first so the server
 * can refuse a bad request before reading megabytes of files; files follow, shared ones first,
 * and `platformMedia` lists each network's own files by their index among all uploaded files.
 * The fields are checked against the contract's schema before anything is sent.
 */
export function buildPostFormData(draft: PostDraft): FormData {
  const files = [...draft.sharedFiles];
  const platformMedia: Record<string, number[]> = {};
  for (const platformId of draft.platformIds) {
    const own = draft.platformFiles[platformId] ?? [];
    if (own.length === 0) continue;
    platformMedia[platformId] = own.map((_, index) => files.length + index);
    files.push(...own);
  }

  const title = draft.title?.trim();
  const fields: CreatePostFields = CreatePostFieldsSchema.parse({
    platformIds: draft.platformIds,
    content: draft.content,
    ...(draft.scheduledAt ? { scheduledAt: draft.scheduledAt } : {}),
    action: draft.action,
    ...(title ? { title } : {}),
    ...(Object.keys(platformMedia).length > 0 ? { platformMedia } : {}),
  });

  const form = new FormData();
  form.append('platformIds', JSON.stringify(fields.platformIds));
  form.append(
    'content',
    typeof fields.content === 'string' ? fields.content : JSON.stringify(fields.content),
  );
  if (fields.scheduledAt) form.append('scheduledAt', fields.scheduledAt);
  if (fields.action) form.append('action', fields.action);
  if (fields.title) form.append('title', fields.title);
  if (fields.platformMedia) form.append('platformMedia', JSON.stringify(fields.platformMedia));
  for (const file of files) form.append('media', file);
  return form;
}
