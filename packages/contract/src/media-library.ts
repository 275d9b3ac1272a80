/**
 * The media library (docs/media-library.md): every file uploaded to an organization, kept once
 * per content (SHA-256 of its bytes), reusable in any post, with its alt text and tags, and the
 * crops made from it for each network's aspect ratio.
 */
import { z } from 'zod';
import { ALT_TEXT_MAX } from './composer-extras.js';
import { PageMetaSchema, successEnvelope } from './envelope.js';
import { MEDIA_KINDS } from './media-rules.js';

/** Storage an organization's library may use when its plan names no number of its own (5 GB). */
export const DEFAULT_MEDIA_STORAGE_MB = 5 * 1024;

/** The aspect ratios the composer crops to (width:height), each network's usual shapes. */
export const CROP_RATIOS = {
  '1:1': 1,
  '4:5': 4 / 5,
  '9:16': 9 / 16,
  '16:9': 16 / 9,
  '1.91:1': 1.91,
} as const;
export type CropRatio = keyof typeof CROP_RATIOS;
export const CROP_RATIO_NAMES = Object.keys(CROP_RATIOS) as [CropRatio, ...CropRatio[]];

export const MEDIA_TAG_MAX = 40;
export const MEDIA_TAGS_PER_ITEM = 20;

export const MediaLibraryItemSchema = z.object({
  id: z.string(),
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  fileName: z.string(),
  size: z.number().int().min(0),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  durationSec: z.number().nullable(),
  altText: z.string().nullable(),
  tags: z.array(z.string()),
  uploadedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** How many posts use it (a post counts once however many of its files it is). */
  usedInPosts: z.number().int().min(0),
  /** The item this one was cropped from; null for an upload. */
  derivedFromId: z.string().nullable(),
  /** The ratio it was cropped to; null for an upload. */
  cropRatio: z.enum(CROP_RATIO_NAMES).nullable(),
  /** Signed, expiring URLs of the file and of its thumbnail. */
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type MediaLibraryItem = z.infer<typeof MediaLibraryItemSchema>;

/** What the organization's library holds against what its plan allows, in bytes. */
export const MediaStorageSchema = z.object({
  usedBytes: z.number().int().min(0),
  limitBytes: z.number().int().min(0),
});
export type MediaStorage = z.infer<typeof MediaStorageSchema>;

export const MediaLibraryParamsSchema = z.object({
  orgId: z.string(),
  mediaId: z.uuid('The media id must be the id of a library item (a UUID).'),
});

/** GET /organizations/{orgId}/media: search, filters and the page. */
export const ListMediaQuerySchema = z.object({
  /** Matches the file name, the alt text and the tags. */
  q: z.string().trim().max(200).optional(),
  type: z.enum(MEDIA_KINDS, { error: 'type must be image or video.' }).optional(),
  /** `true`: only items no post uses. */
  unused: z.stringbool({ error: 'unused must be true or false.' }).optional(),
  tag: z.string().trim().max(MEDIA_TAG_MAX).optional(),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
export type ListMediaQuery = z.infer<typeof ListMediaQuerySchema>;

export const MediaLibraryResponseSchema = successEnvelope(
  z.object({ items: z.array(MediaLibraryItemSchema), storage: MediaStorageSchema }),
).extend({ meta: PageMetaSchema });

export const MediaLibraryItemResponseSchema = successEnvelope(
  z.object({ item: MediaLibraryItemSchema }),
);

const TagSchema = z
  .string()
  .trim()
  .min(1, 'A tag cannot be empty.')
  .max(MEDIA_TAG_MAX, `A tag can be at most ${MEDIA_TAG_MAX} characters.`);

/** PATCH /organizations/{orgId}/media/{mediaId}: its alt text, tags added and removed. */
export const UpdateMediaRequestSchema = z
  .object({
    altText: z
      .string()
      .trim()
      .max(ALT_TEXT_MAX, `Alt text can be at most ${ALT_TEXT_MAX} characters.`)
      .nullable()
      .optional(),
    addTags: z.array(TagSchema).max(MEDIA_TAGS_PER_ITEM).optional(),
    removeTags: z.array(TagSchema).max(MEDIA_TAGS_PER_ITEM).optional(),
  })
  .refine(
    (b) => b.altText !== undefined || (b.addTags?.length ?? 0) + (b.removeTags?.length ?? 0) > 0,
    { message: 'Send altText, addTags or removeTags.' },
  );
export type UpdateMediaRequest = z.infer<typeof UpdateMediaRequestSchema>;

/**
 * POST /organizations/{orgId}/media/{mediaId}/crop: the ratio, and optionally the area to keep
 * (in the original's pixels); without one the largest centred area of that ratio is kept. The
 * result is a new library item linked to its original, which stays as it was.
 */
export const CropMediaRequestSchema = z.object({
  ratio: z.enum(CROP_RATIO_NAMES, {
    error: `ratio must be one of ${CROP_RATIO_NAMES.join(', ')}.`,
  }),
  area: z
    .object({
      left: z.number().int().min(0),
      top: z.number().int().min(0),
      width: z.number().int().min(1),
      height: z.number().int().min(1),
    })
    .optional(),
  /** The longest side of the result in pixels; without it the cropped area keeps its pixels. */
  maxSide: z.number().int().min(16).max(8192).optional(),
});
export type CropMediaRequest = z.infer<typeof CropMediaRequestSchema>;

/** The largest area of `ratio` (width / height) centred in a width × height image, in pixels. */
export function centredCropArea(width: number, height: number, ratio: number) {
  const cropWidth = Math.min(width, Math.round(height * ratio));
  const cropHeight = Math.min(height, Math.round(cropWidth / ratio));
  return {
    left: Math.floor((width - cropWidth) / 2),
    top: Math.floor((height - cropHeight) / 2),
    width: cropWidth,
    height: cropHeight,
  };
}

/** What each ratio is for, as the crop dialog names it. */
export const CROP_RATIO_USES: Record<CropRatio, string> = {
  '1:1': 'Square: Instagram, Facebook, LinkedIn',
  '4:5': 'Portrait: Instagram and Threads feeds',
  '9:16': 'Vertical: Stories, Reels, TikTok, Shorts',
  '16:9': 'Landscape: X, YouTube, LinkedIn',
  '1.91:1': 'Wide: link images on Facebook and LinkedIn',
};
