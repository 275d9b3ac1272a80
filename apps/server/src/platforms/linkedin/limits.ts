import type { MediaConstraints } from '@herald/contract';

/** Composer rules for LinkedIn posts (platform-apis.md §6.5, §8). Check a live account first. */
export const LINKEDIN_MEDIA_CONSTRAINTS: MediaConstraints = {
  text: { maxLength: 3_000, counting: 'codepoints', textOnlyAllowed: true },
  image: { allowedMimeTypes: ['image/jpeg', 'image/png', 'image/gif'], maxCount: 20 },
  video: {
    allowedMimeTypes: ['video/mp4'],
    maxFileSize: 500 * 1024 * 1024,
    minDuration: 3,
    maxDuration: 30 * 60,
    maxCount: 1,
  },
  maxMediaPerPost: 20,
};

/** Most pixels in one image (below 36,152,320). */
export const LINKEDIN_MAX_IMAGE_PIXELS = 36_152_319;

/** Access tokens live 60 days; refresh tokens (partners only) 365 days from the first grant. */
export const LINKEDIN_ACCESS_TOKEN_DAYS = 60;
export const LINKEDIN_REFRESH_TOKEN_DAYS = 365;

/** Organization ACLs asked for per page of results. */
export const LINKEDIN_ACL_PAGE_SIZE = 100;
