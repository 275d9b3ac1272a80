import {
  CreatePostFieldsSchema,
  type CreatePostAction,
  type CreatePostFields,
  type PostContent,
} from '@herald/contract';

/** A post ready to send: the contract's text fields, and the files shared or per account. */
export interface PostDraft {
  /** The accounts (integrations) it goes out from. */
  integrationIds: string[];
  content: PostContent;
  action: CreatePostAction;
  /** ISO instant; only when scheduling. */
  scheduledAt?: string;
  title?: string;
  sharedFiles: File[];
  /** Files for one account only, by integration id. */
  platformFiles: Record<string, File[]>;
}

/**
 * The multipart body of `POST /organizations/{orgId}/post`. Text fields come first so the server
 * can refuse a bad request before reading megabytes of files; files follow, shared ones first,
 * and `platformMedia` lists each account's own files by their index among all uploaded files.
 * The fields are checked against the contract's schema before anything is sent.
 */
export function buildPostFormData(draft: PostDraft): FormData {
  const files = [...draft.sharedFiles];
  const platformMedia: Record<string, number[]> = {};
  for (const integrationId of draft.integrationIds) {
    const own = draft.platformFiles[integrationId] ?? [];
    if (own.length === 0) continue;
    platformMedia[integrationId] = own.map((_, index) => files.length + index);
    files.push(...own);
  }

  const title = draft.title?.trim();
  const fields: CreatePostFields = CreatePostFieldsSchema.parse({
    integrationIds: draft.integrationIds,
    content: draft.content,
    ...(draft.scheduledAt ? { scheduledAt: draft.scheduledAt } : {}),
    action: draft.action,
    ...(title ? { title } : {}),
    ...(Object.keys(platformMedia).length > 0 ? { platformMedia } : {}),
  });

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
  for (const file of files) form.append('media', file);
  return form;
}
