import type { FastifyReply } from 'fastify';
import { randomDigits } from '../kit/secrets.js';

/**
 * Pinterest's numbers and answer shapes as the emulator plays them (docs/networks.md#pinterest-sandbox),
 * written from Pinterest's own documentation, not from Herald's rules.
 */
export const PINTEREST_EMULATOR = {
  /** Access tokens: 30 days; continuous refresh tokens: 60 days, a new one at each refresh. */
  accessTokenSeconds: 30 * 24 * 3600,
  refreshTokenSeconds: 60 * 24 * 3600,
  codeMaxAgeSeconds: 600,
  tokenFormat: { accessPrefix: 'pina_', refreshPrefix: 'pinr_' },
  title: 100,
  description: 800,
  link: 2048,
  altText: 500,
  boardName: 180,
  boardDescription: 500,
  carouselMin: 2,
  carouselMax: 5,
  imageTypes: ['image/jpeg', 'image/png'],
  /** Formats the image's own bytes may be (sharp's names) for each declared type. */
  imageFormats: { 'image/jpeg': 'jpeg', 'image/png': 'png' } as Record<string, string>,
  imageMaxBytes: 20 * 1024 * 1024,
  videoMaxBytes: 2 * 1024 * 1024 * 1024,
  videoMinSeconds: 4,
  videoMaxSeconds: 15 * 60,
  /** Video processing takes this long unless `processing_ms` says otherwise. */
  processingMs: 2_000,
  analyticsDays: 90,
  boardsPageMax: 250,
} as const;

export const PINTEREST_KNOWN_SCOPES = new Set([
  'boards:read',
  'boards:read_secret',
  'boards:write',
  'boards:write_secret',
  'pins:read',
  'pins:read_secret',
  'pins:write',
  'pins:write_secret',
  'user_accounts:read',
  'ads:read',
  'ads:write',
  'catalogs:read',
  'catalogs:write',
]);

/** Pinterest ids: 18 digits for users, boards and pins; media ids are shorter. */
export const pinterestId = () => randomDigits(18);
export const mediaId = () => randomDigits(19);

/** Pinterest's error answer: `{code, message}`. */
export function pinterestError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).send({ code, message });
}

/** A request Pinterest refuses as malformed: code 1, its own words after "Invalid request". */
export const invalid = (reply: FastifyReply, message: string) =>
  pinterestError(reply, 400, 1, message);

export const authFailed = (reply: FastifyReply) =>
  reply.status(401).send({ code: 2, message: 'Authentication failed.', status: 'failure' });
