import type { NetworkSetupFinding } from '@herald/contract';
import { unreachableMediaBase } from '../public-media-url.js';

/**
 * The API_PUBLIC_URL finding for one network that pulls media by URL: a problem when the network
 * could not fetch Herald's media URLs from the internet. The one place the preflight judges the
 * media address (the start-up warning says the same thing from `public-media-url.ts`).
 */
export function mediaUrlFinding(
  networkName: string,
  apiPublicUrl: string,
  what = 'post media',
): NetworkSetupFinding {
  const reason = unreachableMediaBase(apiPublicUrl);
  if (reason) {
    return {
      level: 'problem',
      topic: 'media',
      message: `Set API_PUBLIC_URL to this server's public https address: ${networkName} fetches ${what} from ${apiPublicUrl}/media/…, but ${reason}, so those posts will fail.`,
    };
  }
  return {
    level: 'ok',
    topic: 'media',
    message: `${networkName} fetches ${what} from ${apiPublicUrl}/media/…, a public https address: keep it reachable without a sign-in.`,
  };
}
