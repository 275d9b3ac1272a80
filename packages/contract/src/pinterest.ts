import { z } from 'zod';
import { successEnvelope } from './envelope.js';

/**
 * What a pin needs besides its files (docs/networks.md#pinterest-publishing): the board it is
 * saved on, its title and the link it leads to. The post's text is the pin's description and each
 * image's alt text its `alt_text`; these travel with each Pinterest account of a post, as
 * YouTube's do.
 */

/** `POST /v5/pins` `title`: at most 100 characters. */
export const PINTEREST_TITLE_MAX = 100;
/** `link`: at most 2,048 characters. */
export const PINTEREST_LINK_MAX = 2048;
/** `alt_text`: at most 500 characters. */
export const PINTEREST_ALT_TEXT_MAX = 500;
/** `POST /v5/boards` `name`: at most 180 characters; `description` 500. */
export const PINTEREST_BOARD_NAME_MAX = 180;
export const PINTEREST_BOARD_DESCRIPTION_MAX = 500;
/** A carousel pin (`multiple_image_*`) holds 2 to 5 images. */
export const PINTEREST_CAROUSEL_MIN = 2;
export const PINTEREST_CAROUSEL_MAX = 5;

export const PinterestPostSettingsSchema = z.object({
  /** The board the pin is saved on (`board_id`); empty until chosen. */
  boardId: z
    .string()
    .trim()
    .max(64)
    .regex(/^\d*$/, 'The Pinterest board id is not valid.')
    .default(''),
  /** Kept to show the board in the composer and the post's details. */
  boardName: z.string().trim().max(PINTEREST_BOARD_NAME_MAX).default(''),
  title: z.string().trim().max(200).default(''),
  /** Where the pin leads when clicked; empty for none. */
  link: z.string().trim().max(4096).default(''),
});
export type PinterestPostSettings = z.infer<typeof PinterestPostSettingsSchema>;

/** Account (integration) id → its Pinterest settings (the multipart field `pinterest`, as JSON). */
export const PinterestSettingsByAccountSchema = z.record(z.string(), PinterestPostSettingsSchema);

export type PinterestSettingsField = 'board' | 'title' | 'link';
export interface PinterestSettingsIssue {
  field: PinterestSettingsField;
  message: string;
}

const isWebLink = (link: string) => {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * Why these settings cannot go to Pinterest (empty when they can), each with the field it is
 * about. Shared by the composer and the server; the files' rules are the shared constraints'
 * (network-constraints.ts, publish-rules.ts).
 */
export function pinterestSettingsIssues(settings: PinterestPostSettings): PinterestSettingsIssue[] {
  const issues: PinterestSettingsIssue[] = [];
  if (!settings.boardId)
    issues.push({ field: 'board', message: 'Choose the Pinterest board this pin is saved on.' });
  const title = settings.title.trim();
  if ([...title].length > PINTEREST_TITLE_MAX)
    issues.push({
      field: 'title',
      message: `The pin title is ${[...title].length} characters long; Pinterest takes at most ${PINTEREST_TITLE_MAX}.`,
    });
  const link = settings.link.trim();
  if (link && link.length > PINTEREST_LINK_MAX)
    issues.push({
      field: 'link',
      message: `The pin link is ${link.length} characters long; Pinterest takes at most ${PINTEREST_LINK_MAX}.`,
    });
  else if (link && !isWebLink(link))
    issues.push({
      field: 'link',
      message: 'The pin link must be a web address starting with https:// or http://.',
    });
  return issues;
}

/** A board the composer offers (`GET /v5/boards`). */
export const PinterestBoardSchema = z.object({
  id: z.string(),
  name: z.string(),
  privacy: z.enum(['PUBLIC', 'PROTECTED', 'SECRET']),
  pinCount: z.number().int().nullable(),
});
export type PinterestBoard = z.infer<typeof PinterestBoardSchema>;

export const PinterestBoardsParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  integrationId: z.uuid('The account id is not valid.'),
});
export const PinterestBoardsResponseSchema = successEnvelope(
  z.object({ boards: z.array(PinterestBoardSchema) }),
);

/** A board made from the composer (`POST /v5/boards`). */
export const CreatePinterestBoardSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the board a name.')
    .max(
      PINTEREST_BOARD_NAME_MAX,
      `Pinterest board names are at most ${PINTEREST_BOARD_NAME_MAX} characters.`,
    ),
  description: z
    .string()
    .trim()
    .max(
      PINTEREST_BOARD_DESCRIPTION_MAX,
      `Pinterest board descriptions are at most ${PINTEREST_BOARD_DESCRIPTION_MAX} characters.`,
    )
    .optional(),
  privacy: z.enum(['PUBLIC', 'SECRET']).default('PUBLIC'),
});
export type CreatePinterestBoard = z.infer<typeof CreatePinterestBoardSchema>;
export const PinterestBoardResponseSchema = successEnvelope(
  z.object({ board: PinterestBoardSchema }),
);
