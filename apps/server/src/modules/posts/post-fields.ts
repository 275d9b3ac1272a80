import {
  CreatePostFieldsSchema,
  EditPostFieldsSchema,
  type CreatePostFields,
  type EditPostFields,
  type PostContent,
} from '@herald/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';

/** Reads a multipart text field that must hold JSON, with a sentence naming the field when it does not. */
function parseJsonField(name: string, raw: string, example: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new AppError('VALIDATION_FAILED', `${name} must be JSON, like ${example}.`);
  }
}

const CONTENT_SHAPE_MESSAGE =
  'content must be text, or a JSON object of texts keyed by account or platform id with a "default" entry.';

/**
 * `content` is plain text, or a JSON object of strings keyed by platform id. Text that merely
 * starts with "{" but is not JSON stays text; JSON that is an object of anything but strings is
 * refused rather than guessed at.
 */
function parseContentField(raw: string | undefined): PostContent {
  const text = raw ?? '';
  if (!text.trimStart().startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return text;
  }
  if (
    parsed === null ||
    typeof parsed !== 'object' ||
    Array.isArray(parsed) ||
    Object.values(parsed).some((value) => typeof value !== 'string')
  ) {
    throw new AppError('VALIDATION_FAILED', CONTENT_SHAPE_MESSAGE);
  }
  return parsed as Record<string, string>;
}

/** The text fields both the create and the edit payloads have, parsed from their strings. */
function commonFields(raw: Record<string, string>) {
  if (raw.platformIds === undefined && raw.integrationIds === undefined) {
    throw new AppError(
      'VALIDATION_FAILED',
      'Select at least one account to post to (integrationIds, or platformIds).',
    );
  }
  return {
    integrationIds:
      raw.integrationIds === undefined
        ? undefined
        : parseJsonField('integrationIds', raw.integrationIds, '["<account id>"]'),
    platformIds:
      raw.platformIds === undefined
        ? undefined
        : parseJsonField('platformIds', raw.platformIds, '["<platform id>"]'),
    content: parseContentField(raw.content),
    scheduledAt: raw.scheduledAt?.trim() ? raw.scheduledAt.trim() : undefined,
    action: raw.action?.trim() ? raw.action.trim() : undefined,
    title: raw.title,
    platformMedia: raw.platformMedia?.trim()
      ? parseJsonField('platformMedia', raw.platformMedia, '{"<account or platform id>": [0, 1]}')
      : undefined,
    altTexts: raw.altTexts?.trim()
      ? parseJsonField('altTexts', raw.altTexts, '{"0": "A dog on a beach"}')
      : undefined,
    libraryMedia: raw.libraryMedia?.trim()
      ? parseJsonField('libraryMedia', raw.libraryMedia, '{"0": "<library item id>"}')
      : undefined,
    linkTracking: raw.linkTracking?.trim()
      ? parseJsonField('linkTracking', raw.linkTracking, '{"campaign": "spring"}')
      : undefined,
    shortLinks: raw.shortLinks?.trim()
      ? parseJsonField('shortLinks', raw.shortLinks, 'true')
      : undefined,
    tiktok: raw.tiktok?.trim()
      ? parseJsonField(
          'tiktok',
          raw.tiktok,
          '{"<TikTok account id>": {"privacyLevel": "SELF_ONLY"}}',
        )
      : undefined,
    mastodon: raw.mastodon?.trim()
      ? parseJsonField(
          'mastodon',
          raw.mastodon,
          '{"<Mastodon account id>": {"spoilerText": "Spoilers", "visibility": "unlisted", "language": "en"}}',
        )
      : undefined,
    youtube: raw.youtube?.trim()
      ? parseJsonField(
          'youtube',
          raw.youtube,
          '{"<YouTube account id>": {"title": "My video", "madeForKids": false}}',
        )
      : undefined,
    googleBusiness: raw.googleBusiness?.trim()
      ? parseJsonField(
          'googleBusiness',
          raw.googleBusiness,
          '{"<Google Business Profile location id>": {"topicType": "OFFER", "event": {"title": "Spring sale", "startDate": "2026-04-01", "endDate": "2026-04-30"}, "offer": {"couponCode": "SPRING"}}}',
        )
      : undefined,
    pinterest: raw.pinterest?.trim()
      ? parseJsonField(
          'pinterest',
          raw.pinterest,
          '{"<Pinterest account id>": {"boardId": "<board id>", "title": "My pin", "link": "https://example.com"}}',
        )
      : undefined,
    followUps: raw.followUps?.trim()
      ? parseJsonField(
          'followUps',
          raw.followUps,
          '{"<account id>": {"parts": ["Part 2", "Part 3"], "firstComment": "…"}}',
        )
      : undefined,
  };
}

/** Checks the candidate with the contract's schema; the first problem as a sentence. */
function checked<S extends z.ZodType>(schema: S, candidate: unknown): z.infer<S> {
  const parsed = schema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    const message = issue?.message ?? 'is invalid';
    // zod's own wording for shape errors names the field; our refinements are whole sentences.
    throw new AppError(
      'VALIDATION_FAILED',
      /^[A-Z]/.test(message) || message.startsWith(field) ? message : `${field}: ${message}`,
      { issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })) },
    );
  }
  return parsed.data;
}

/** Validates the text fields of the multipart create payload (docs/product.md#post-entity) into the contract's shape. */
export function parseCreateFields(raw: Record<string, string>): CreatePostFields {
  return checked(CreatePostFieldsSchema, commonFields(raw));
}

/** The edit payload: the create payload's fields, and `keepMediaIds` (JSON) for stored files. */
export function parseEditFields(raw: Record<string, string>): EditPostFields {
  return checked(EditPostFieldsSchema, {
    ...commonFields(raw),
    keepMediaIds: raw.keepMediaIds?.trim()
      ? parseJsonField('keepMediaIds', raw.keepMediaIds, '["<file id>"]')
      : undefined,
  });
}
