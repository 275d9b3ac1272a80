import type { FastifyReply } from 'fastify';
import { randomToken } from '../kit/secrets.js';
import type { AccessCheck } from '../kit/oauth-state.js';

/** Threads' numbers and Graph error answers as the emulator needs them (docs/networks.md#threads, #meta-errors, #threads-sandbox). */
export const THREADS_EMULATOR = {
  shortTokenSeconds: 3600,
  longTokenSeconds: 5_183_944,
  refreshMinAgeSeconds: 86_400,
  /** Meta does not document the code lifetime; ten minutes is the usual OAuth figure. */
  codeMaxAgeSeconds: 600,
  tokenFormat: { accessPrefix: 'TH' },
} as const;

export const THREADS_KNOWN_SCOPES = new Set([
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  'threads_manage_insights',
  'threads_keyword_search',
  'threads_manage_mentions',
  'threads_delete',
  'threads_location_tagging',
  'threads_profile_discovery',
]);

export interface GraphErrorBody {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  is_transient?: boolean;
}

/** The Graph error envelope (docs/networks.md#meta-errors); Meta answers most errors, 190 included, with HTTP 400. */
export function graphError(reply: FastifyReply, status: number, error: GraphErrorBody) {
  return reply.status(status).send({
    error: { type: 'OAuthException', ...error, fbtrace_id: `A${randomToken(16)}` },
  });
}

/** The 190 answer for a token that did not pass (docs/networks.md#scenario-knobs: `token_expired`/`token_revoked`). */
export function invalidToken(
  reply: FastifyReply,
  reason: Extract<AccessCheck, { ok: false }>['reason'],
) {
  if (reason === 'expired')
    return graphError(reply, 400, {
      message: 'Error validating access token: Session has expired.',
      code: 190,
      error_subcode: 463,
    });
  if (reason === 'revoked')
    return graphError(reply, 400, {
      message: 'Error validating access token: The user has not authorized application.',
      code: 190,
      error_subcode: 458,
    });
  return graphError(reply, 400, {
    message: 'Invalid OAuth access token - Cannot parse access token',
    code: 190,
  });
}

/** Query and form fields together: Threads' OAuth endpoints take either. */
export function fieldsOf(query: unknown, body: unknown): Record<string, string | undefined> {
  const merged = { ...((query as object) ?? {}), ...((body as object) ?? {}) } as Record<
    string,
    unknown
  >;
  return Object.fromEntries(
    Object.entries(merged).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]),
  );
}

/** Publishing numbers the emulator enforces (docs/networks.md#threads-publishing, #threads-limits) and its default processing times. */
export const THREADS_PUBLISHING = {
  postsPer24h: 250,
  repliesPer24h: 1000,
  textMax: 500,
  /**
   * Links per post, the text's and `link_attachment` together (since 2025-12-22,
   * https://developers.facebook.com/docs/threads/posts): more answer THREADS_API__LINK_LIMIT_EXCEEDED.
   */
  linksMax: 5,
  /** Media a Threads container takes (https://developers.facebook.com/docs/threads/overview, media specifications). */
  imageFormats: ['jpeg', 'png'] as readonly string[],
  imageMaxBytes: 8 * 1024 * 1024,
  videoMaxBytes: 1024 * 1024 * 1024,
  videoMaxSeconds: 300,
  carouselMin: 2,
  carouselMax: 20,
  /** Images are fetched at once; videos take a moment (knob `processing_ms` overrides both). */
  imageProcessingMs: 0,
  videoProcessingMs: 2000,
} as const;
