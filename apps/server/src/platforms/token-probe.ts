/**
 * The live preflight's probe (`herald doctor --live`, `?live=true`; platforms/preflight/probe.ts)
 * exchanges a made-up authorization code at the network's token endpoint with the configured
 * client id and secret. Each network module says how its adapter sends that exchange; the
 * helpers below are the shapes most networks share.
 */
export interface ProbeTarget {
  slug: string;
  name: string;
  urls: Record<string, string>;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The connect kind whose app is probed (LinkedIn's Page app has variables of its own). */
  kind?: string;
}

/** The request a probe sends. */
export interface TokenProbeRequest {
  url: string;
  init: RequestInit;
}

/** A network's code exchange with the made-up code; null when Herald has no probe for it. */
export type TokenProbe = (target: ProbeTarget) => TokenProbeRequest | null;

/** The made-up code: no network ever issued it, so none accepts it. */
export const PROBE_CODE = 'herald-preflight-probe';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The code and redirect URI every exchange carries. */
export const probeCode = (t: ProbeTarget) => ({ code: PROBE_CODE, redirect_uri: t.redirectUri });

/** A form POST of `fields` to `url`, with more headers when the network wants them. */
export const formPost = (
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): TokenProbeRequest => ({
  url,
  init: {
    method: 'POST',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(fields).toString(),
  },
});

/**
 * The plain OAuth 2.0 exchange (client id and secret in the form), as LinkedIn and Threads take
 * it; null when the URL set has no token URL.
 */
export const oauthCodeExchange = (url: string | undefined, t: ProbeTarget) =>
  url
    ? formPost(url, {
        ...probeCode(t),
        client_id: t.clientId,
        client_secret: t.clientSecret,
        grant_type: 'authorization_code',
      })
    : null;
