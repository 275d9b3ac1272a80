import { AppError } from '../../lib/app-error.js';
import type { SandboxContext } from '../context.js';

/**
 * The only place a sandbox sends anything to: Herald's own webhook receiver of a provider,
 * `{heraldApi}/webhooks/{provider}` (modules/inbox/webhooks.routes.ts). A network delivers to
 * whatever URL its app registered; the sandboxes are reached by every signed-in user, so a
 * callback they could point elsewhere would make the server fetch any URL for them.
 */
export const heraldReceiver = (heraldApi: string, provider: string) =>
  `${heraldApi.replace(/\/$/, '')}/webhooks/${provider}`;

/**
 * Whether `url` is Herald's receiver for `provider` (any provider when not named): the same
 * origin as Herald's API, no credentials, and exactly the receiver's path once dot segments are
 * resolved. A query string is allowed: handshakes and CRC checks add theirs.
 */
export function isHeraldReceiver(url: string | URL, heraldApi: string, provider?: string) {
  let target: URL;
  let api: URL;
  try {
    target = new URL(url);
    api = new URL(heraldApi);
  } catch {
    return false;
  }
  if (target.username || target.password || target.origin !== api.origin) return false;
  const base = `${api.pathname.replace(/\/$/, '')}/webhooks/`;
  if (!target.pathname.startsWith(base)) return false;
  const rest = target.pathname.slice(base.length);
  return provider === undefined ? /^[a-z]+$/.test(rest) : rest === provider;
}

/**
 * `deliver` narrowed to Herald's receivers: anything else is refused before a request is made,
 * whichever emulator route asked for it.
 */
export function receiversOnly(
  heraldApi: string,
  deliver: SandboxContext['deliver'],
): SandboxContext['deliver'] {
  return async (url, init) => {
    if (!isHeraldReceiver(url, heraldApi))
      throw new Error('A sandbox delivers only to Herald’s own webhook receivers.');
    return deliver(url, init);
  };
}

/**
 * A callback URL given to a sandbox, checked: Herald's receiver for `provider` or a 400 that
 * names the one URL accepted.
 */
export function requireHeraldReceiver(url: unknown, ctx: SandboxContext, provider: string) {
  const receiver = heraldReceiver(ctx.heraldApi, provider);
  if (typeof url !== 'string' || !isHeraldReceiver(url, ctx.heraldApi, provider))
    throw new AppError(
      'BAD_REQUEST',
      `The sandbox delivers webhooks only to Herald's own receiver: send callbackUrl ${receiver}.`,
    );
  return url;
}

/**
 * Whether `url` is one of the media URLs Herald hands out, `{heraldApi}/media/{key}`: the same
 * origin as Herald's API, no credentials, under the media path once dot segments are resolved.
 */
export function isHeraldMedia(url: string | URL, heraldApi: string) {
  let target: URL;
  let api: URL;
  try {
    target = new URL(url);
    api = new URL(heraldApi);
  } catch {
    return false;
  }
  if (target.username || target.password || target.origin !== api.origin) return false;
  const base = `${api.pathname.replace(/\/$/, '')}/media/`;
  return target.pathname.startsWith(base) && target.pathname.length > base.length;
}

/** How long a sandbox waits for one of Herald's media files. */
const MEDIA_TIMEOUT_MS = 3000;

/**
 * A fetch narrowed to Herald's own media files, for an emulator that reads a post's media as its
 * network would (Instagram checks an image's format and proportions). Any other URL is refused
 * before a request is made, so no caller of a sandbox makes the server fetch a URL of their
 * choosing; a redirect is answered as is, never followed elsewhere.
 */
export function heraldMediaOnly(
  heraldApi: string,
  fetchFile: SandboxContext['deliver'],
): SandboxContext['fetchMedia'] {
  return async (url) => {
    if (!isHeraldMedia(url, heraldApi))
      throw new Error('A sandbox reads only the media files Herald hands out.');
    return fetchFile(url, { redirect: 'manual', signal: AbortSignal.timeout(MEDIA_TIMEOUT_MS) });
  };
}

/**
 * Whether `url` is one of Herald's OAuth client documents, `{heraldApi}/oauth/{path}`: the same
 * origin as Herald's API, no credentials, under that path once dot segments are resolved.
 */
export function isHeraldClientDocument(url: string | URL, heraldApi: string) {
  let target: URL;
  let api: URL;
  try {
    target = new URL(url);
    api = new URL(heraldApi);
  } catch {
    return false;
  }
  if (target.username || target.password || target.origin !== api.origin) return false;
  const base = `${api.pathname.replace(/\/$/, '')}/oauth/`;
  return target.pathname.startsWith(base) && target.pathname.length > base.length;
}

/**
 * A fetch narrowed to Herald's OAuth client documents, for an emulator whose authorization server
 * reads its clients' metadata from their client ids (Bluesky). Any other URL is refused before a
 * request is made; a redirect is not followed.
 */
export function heraldClientDocumentsOnly(
  heraldApi: string,
  fetchDocument: SandboxContext['deliver'],
): SandboxContext['fetchClientDocument'] {
  return async (url) => {
    if (!isHeraldClientDocument(url, heraldApi))
      throw new Error('A sandbox reads only the OAuth client documents Herald serves.');
    return fetchDocument(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(MEDIA_TIMEOUT_MS),
    });
  };
}
