import type { NetworkSetupFinding } from '@herald/contract';
import { NETWORK_MODULES } from '../catalog.js';
import type { NetworkModule } from '../network-module.js';
import { appOf } from '../network-env.js';
import type { ProbeTarget } from '../token-probe.js';
import type { PlatformHttp } from '../types.js';

export type { ProbeTarget };

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
  // Pinterest's {code, message, status}: code 2, "Authentication failed.", refuses the app's
  // Basic credentials; a made-up code with the right ones is code 1, an invalid code.
  if (typeof b.code === 'number' && b.status === 'failure')
    return { clientRefused: b.code === 2, words };
  return { clientRefused: false, words };
}

/**
 * The live preflight (`herald doctor --live`, `?live=true`): exchange a made-up authorization code
 * at the network's token endpoint with the configured client id and secret, as the network's
 * module says its adapter sends it (`tokenProbe`). The network checks the client before the code,
 * so its answer says which one it refused: "unknown client" means the credentials are wrong;
 * "invalid code" means they are right. Nothing is created at the network. One `live` finding per network.
 */
export async function probeTokenEndpoint(
  target: ProbeTarget,
  http: PlatformHttp,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  modules: readonly NetworkModule<any>[] = NETWORK_MODULES,
): Promise<NetworkSetupFinding> {
  const { name } = target;
  const module = modules.find((m) => m.slug === target.slug);
  // No shared app to probe: each server's is registered when someone first connects there.
  if (module?.setup.perServerApps)
    return {
      level: 'ok',
      topic: 'live',
      message:
        module.setup.noProbe ??
        `Nothing to probe: Herald registers itself on each ${name} server when someone first connects there.`,
    };
  const request = module?.tokenProbe(target);
  if (!module || !request)
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
  const env = appOf(
    module,
    module.connectKinds?.find((k) => k.kind === target.kind),
  ).env;
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
