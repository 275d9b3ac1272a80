import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { unreachableMediaBase } from '../../lib/public-url.js';
import { callFault } from '../kit/call-knobs.js';
import { bearerToken } from '../kit/consent.js';
import type { AccessCheck, SandboxOAuth } from '../kit/oauth-state.js';
import { graphError, invalidToken } from './responses.js';

/** Pieces every Threads Graph route shares: the access check with its knobs, fields, limits. */
export type GraphAccess = Extract<AccessCheck, { ok: true }>;

/**
 * Checks the token (query `access_token` or Bearer), applies the per-call knobs and the scope
 * the endpoint needs. Sends the error answer and returns null when the call must stop.
 */
export async function graphAccess(
  request: FastifyRequest,
  reply: FastifyReply,
  oauth: SandboxOAuth,
  scope?: string,
): Promise<GraphAccess | null> {
  const check = await oauth.verifyAccess(bearerToken(request, true));
  if (!check.ok) {
    invalidToken(reply, check.reason);
    return null;
  }
  const fault = await callFault(check.scenario);
  if (fault === 'rate_limit') {
    graphError(reply, 400, {
      message: '(#4) Application request limit reached',
      code: 4,
      is_transient: true,
    });
    return null;
  }
  if (fault === 'fail') {
    graphError(reply, 500, {
      message: 'Service temporarily unavailable',
      code: 2,
      is_transient: true,
    });
    return null;
  }
  if (scope && !check.scopes.includes(scope)) {
    graphError(reply, 400, {
      message: `(#10) The user has not granted the ${scope} permission to this app.`,
      code: 10,
    });
    return null;
  }
  return check;
}

/** The `{user}` of `/{user}/threads…` must be `me` or the token's own account. */
export function sameUser(reply: FastifyReply, access: GraphAccess, user: string): boolean {
  if (user === 'me' || user === access.account.id) return true;
  missingObject(reply, user);
  return false;
}

export const missingObject = (reply: FastifyReply, id: string, method = 'get') =>
  graphError(reply, 400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    code: 100,
    error_subcode: 33,
  });

/** For helpers that answer null once they have sent the error. */
export const refused = (_sent: unknown): null => null;

export const badParam = (reply: FastifyReply, message: string) =>
  graphError(reply, 400, { message: `(#100) ${message}`, code: 100 });

/** The `fields` parameter, or the node's default fields. */
export function requestedFields(query: unknown, defaults: string[]): string[] {
  const raw = (query as Record<string, unknown> | undefined)?.fields;
  const fields = typeof raw === 'string' ? raw.split(',').map((f) => f.trim()) : defaults;
  return fields.filter(Boolean);
}

/**
 * The answer for a node: `id` and the asked-for fields that have a value. Sends error 100 and
 * returns null for a field the node type does not have.
 */
export function pickFields(
  reply: FastifyReply,
  available: Record<string, unknown>,
  fields: string[],
  nodeType: string,
): Record<string, unknown> | null {
  const unknown = fields.find((f) => !(f in available));
  if (unknown) {
    badParam(reply, `Tried accessing nonexisting field (${unknown}) on node type (${nodeType})`);
    return null;
  }
  const picked: Record<string, unknown> = { id: available.id };
  for (const f of fields) if (available[f] !== undefined) picked[f] = available[f];
  return picked;
}

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
const utf8 = new TextEncoder();
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Threads counts characters, except that an emoji counts as its UTF-8 byte length
 * (https://developers.facebook.com/docs/threads/posts, "Limitations").
 */
export function threadsTextLength(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text))
    length += EMOJI.test(segment) ? utf8.encode(segment).length : [...segment].length;
  return length;
}

/** The web links a text carries, as Threads finds them: each http(s) address. */
export const linksIn = (text: string) => text.match(/\bhttps?:\/\/[^\s]+/giu)?.length ?? 0;

/**
 * Why Threads could not fetch a media URL, or null. The emulator does not download: it checks
 * that the URL is absolute http(s) and, for Herald's signed URLs, that `exp` has not passed.
 */
export function unreachableUrl(value: string, runsLocally = true): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL';
  // Threads fetches from the internet: loopback or plain http only when told it runs locally.
  if (!runsLocally && unreachableMediaBase(url.href)) return 'cannot be fetched from the internet';
  const exp = Number(url.searchParams.get('exp'));
  if (url.searchParams.has('exp') && Number.isFinite(exp) && exp * 1000 < Date.now())
    return 'has expired';
  return null;
}

/**
 * Cursor paging over a list: `{data, paging:{cursors:{before,after}, next?, previous?}}`, where
 * `next`/`previous` are the request's own URL with the cursor swapped (`link`).
 */
export function pageOf<T>(
  items: T[],
  query: Record<string, unknown>,
  link: (cursor: { after?: string; before?: string }) => string,
  defaultLimit = 25,
): { items: T[]; paging: Record<string, unknown> } {
  const limit = Math.min(Math.max(Number(query.limit) || defaultLimit, 1), 100);
  const decode = (c: unknown) =>
    typeof c === 'string' ? Number(Buffer.from(c, 'base64url').toString()) || 0 : 0;
  const encode = (n: number) => Buffer.from(String(n)).toString('base64url');
  let start = query.after !== undefined ? decode(query.after) : 0;
  if (query.before !== undefined) start = Math.max(0, decode(query.before) - limit);
  const slice = items.slice(start, start + limit);
  const end = start + slice.length;
  const paging: Record<string, unknown> = {
    cursors: { before: encode(start), after: encode(end) },
  };
  if (end < items.length) paging.next = link({ after: encode(end) });
  if (start > 0) paging.previous = link({ before: encode(start) });
  return { items: slice, paging };
}

/** `link` for pageOf: this request's public URL with other cursors, the token left out. */
export function pageLink(ctx: SandboxContext, request: FastifyRequest) {
  return (cursor: { after?: string; before?: string }) => {
    const url = new URL(`${ctx.publicBase}${request.url.slice(ctx.mountPath.length)}`);
    for (const key of ['after', 'before', 'access_token']) url.searchParams.delete(key);
    for (const [key, value] of Object.entries(cursor)) if (value) url.searchParams.set(key, value);
    return url.toString();
  };
}
