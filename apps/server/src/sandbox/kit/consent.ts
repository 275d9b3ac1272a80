import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from './html.js';
import type { SandboxContext } from '../context.js';

/**
 * Pieces of an emulated authorize endpoint that every network shares: the consent page, the
 * decision, the redirect back, and the error page shown when the redirect cannot be trusted.
 */
export type Params = Record<string, string | undefined>;

/**
 * Herald's own callback for this emulator's network, `{api}/auth/{slug}/callback` (the adapters
 * get it from integrations.service.ts), found beside the emulator's `{api}/sandbox/{slug}`.
 */
export function heraldCallbackUrl(ctx: Pick<SandboxContext, 'publicBase'>): string | null {
  const match = /^(.*)\/sandbox\/([^/]+)$/.exec(ctx.publicBase);
  return match ? `${match[1]}/auth/${match[2]}/callback` : null;
}

/**
 * Whether `value` is the one redirect_uri registered for the sandbox app: Herald's callback,
 * exactly (the networks compare registered redirect URIs as strings). Anything else gets an
 * error page, never a redirect: an open redirector would hand codes to strangers.
 */
export function isHeraldCallback(
  ctx: Pick<SandboxContext, 'publicBase'>,
  value: string | undefined,
): value is string {
  return !!value && value === heraldCallbackUrl(ctx);
}

/** What the kit's authorize endpoints show for any other redirect_uri. */
export const REDIRECT_MISMATCH =
  'redirect_uri mismatch: the redirect URI is not registered for this app.';

export function redirectWith(reply: FastifyReply, redirectUri: string, params: Params) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.redirect(url.toString(), 302);
}

/** What a network shows instead of redirecting when the client or redirect_uri is wrong. */
export function errorPage(reply: FastifyReply, network: string, message: string) {
  return reply
    .status(400)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(network)} sandbox</title></head>` +
        `<body><main><h1>${escapeHtml(network)} sandbox</h1><p role="alert">${escapeHtml(message)}</p></main></body></html>`,
    );
}

/** Authorize query (GET) or consent form (POST) fields as strings. */
export function authorizeParams(request: FastifyRequest): Params {
  const source = (request.method === 'GET' ? request.query : request.body) ?? {};
  return Object.fromEntries(
    Object.entries(source as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === 'string' ? v : undefined,
    ]),
  );
}

/** A round picture with the account's initial, usable as a profile picture URL anywhere. */
export function avatarDataUrl(name: string, hue: number): string {
  const initial = escapeHtml((name.trim()[0] ?? '?').toUpperCase());
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<circle cx="48" cy="48" r="48" fill="hsl(${hue} 60% 42%)"/>` +
    `<text x="48" y="62" font-family="system-ui,sans-serif" font-size="44" text-anchor="middle" fill="#fff">${initial}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The Bearer token of a request (or Graph-style `access_token` query parameter). */
export function bearerToken(request: FastifyRequest, allowQuery = false): string | undefined {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  if (!allowQuery) return undefined;
  const q = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof q === 'string' ? q : undefined;
}

/** Client credentials from `Authorization: Basic`, if sent. */
export function basicCredentials(request: FastifyRequest): { id: string; secret: string } | null {
  const header = request.headers.authorization;
  if (!header?.toLowerCase().startsWith('basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
