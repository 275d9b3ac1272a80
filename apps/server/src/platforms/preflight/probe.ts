import type { NetworkSetupFinding } from '@herald/contract';
import type { PlatformHttp } from '../types.js';
import { setupFactsFor } from './setup-facts.js';

/**
 * The live preflight (`herald doctor --live`, `?live=true`): exchange a made-up authorization code
 * at the network's token endpoint with the configured client id and secret. The network checks
 * the client before the code, so its answer says which one it refused: "unknown client" means
 * the credentials are wrong; "invalid code" means they are right. Nothing is created at the
 * network.
 */
export interface ProbeTarget {
  slug: string;
  name: string;
  urls: Record<string, string>;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

const PROBE_CODE = 'herald-preflight-probe';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The code exchange as each adapter sends it (platforms/<network>/api.ts). */
function tokenRequest(t: ProbeTarget): { url: string; init: RequestInit } | null {
  const code = { code: PROBE_CODE, redirect_uri: t.redirectUri };
  switch (t.slug) {
    case 'x':
      return {
        url: `${t.urls.apiBase}/2/oauth2/token`,
        init: {
          method: 'POST',
          headers: {
            ...FORM,
            authorization: `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64')}`,
          },
          body: form({ ...code, grant_type: 'authorization_code', code_verifier: PROBE_CODE }),
        },
      };
    case 'facebook':
    case 'instagram': {
      const url = new URL(`${t.urls.graphBase}/${t.urls.graphVersion}/oauth/access_token`);
      for (const [k, v] of Object.entries({
        ...code,
        client_id: t.clientId,
        client_secret: t.clientSecret,
      }))
        url.searchParams.set(k, v);
      return { url: url.toString(), init: { method: 'GET' } };
    }
    case 'threads':
      return {
        url: `${t.urls.graphBase}/oauth/access_token`,
        init: {
          method: 'POST',
          headers: FORM,
          body: form({
            ...code,
            client_id: t.clientId,
            client_secret: t.clientSecret,
            grant_type: 'authorization_code',
          }),
        },
      };
    case 'tiktok':
      return {
        url: `${t.urls.apiBase}/v2/oauth/token/`,
        init: {
          method: 'POST',
          headers: FORM,
          body: form({
            ...code,
            client_key: t.clientId,
            client_secret: t.clientSecret,
            grant_type: 'authorization_code',
          }),
        },
      };
    default:
      // LinkedIn and any network with a plain OAuth token URL.
      if (!t.urls.tokenUrl) return null;
      return {
        url: t.urls.tokenUrl,
        init: {
          method: 'POST',
          headers: FORM,
          body: form({
            ...code,
            client_id: t.clientId,
            client_secret: t.clientSecret,
            grant_type: 'authorization_code',
          }),
        },
      };
  }
}

/** What the network's refusal says: the client was refused, or only the code. */
export function readProbeAnswer(body: unknown): { clientRefused: boolean; words: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  // OAuth's {error, error_description} (X, TikTok, LinkedIn).
  if (typeof b.error === 'string') {
    const words = typeof b.error_description === 'string' ? b.error_description : b.error;
    return { clientRefused: ['invalid_client', 'unauthorized_client'].includes(b.error), words };
  }
  // Graph's {error:{code, message}} (Facebook, Instagram, Threads): 101 is an unknown app id,
  // code 1 "Error validating client secret" a wrong secret.
  if (b.error && typeof b.error === 'object') {
    const e = b.error as { code?: unknown; message?: unknown };
    const words = typeof e.message === 'string' ? e.message : 'no message';
    const clientRefused = e.code === 101 || (e.code === 1 && /client secret/i.test(words));
    return { clientRefused, words };
  }
  // TikTok's API envelope {error:{code, message}} never reaches here (string codes are above).
  const words = typeof b.message === 'string' ? b.message : 'no message';
  return { clientRefused: false, words };
}

/** One `live` finding for a network. */
export async function probeTokenEndpoint(
  target: ProbeTarget,
  http: PlatformHttp,
): Promise<NetworkSetupFinding> {
  const { name } = target;
  const env = setupFactsFor(target.slug).env;
  const request = tokenRequest(target);
  if (!request)
    return {
      level: 'warning',
      topic: 'live',
      message: `Herald has no token probe for ${name}: connect an account to test its credentials.`,
    };
  let res: Response;
  try {
    res = await http(request.url, request.init);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      level: 'warning',
      topic: 'live',
      message: `Check this server's outgoing connection: ${name}'s token endpoint could not be reached (${reason}).`,
    };
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text.slice(0, 200) };
  }
  if (res.status >= 500)
    return {
      level: 'warning',
      topic: 'live',
      message: `Try the live check again later: ${name}'s token endpoint answered ${res.status}.`,
    };
  if (res.ok)
    return {
      level: 'warning',
      topic: 'live',
      message: `Look at ${name}'s token endpoint: it accepted a made-up code, which a real ${name} never does.`,
    };
  const { clientRefused, words } = readProbeAnswer(body);
  if (clientRefused)
    return {
      level: 'problem',
      topic: 'live',
      message: `Check ${env.clientId} and ${env.clientSecret}: ${name} does not accept them (“${words}”).`,
    };
  return {
    level: 'ok',
    topic: 'live',
    message: `${name} accepts the client id and secret: it refused only the test code (“${words}”).`,
  };
}
