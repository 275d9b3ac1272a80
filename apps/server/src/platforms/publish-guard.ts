import { postBodyProblems, type RuleProblem } from '@herald/contract';
import { PlatformError } from './errors.js';
import type { PublishRequest } from './types.js';

/**
 * The shared rule set (`postBodyProblems` in the contract: the media mix, counts, cashtags,
 * links, hashtags, mentions, an empty post) run once more by an adapter just before it calls its
 * network, on the network's own numbers. The server refused these when the post was written
 * (docs/product.md#media-rules); this is the last line, for a post stored before a rule existed.
 * The text's length is left to each network (X's depends on the account's subscription).
 */
export function publishRuleProblems(
  network: string,
  request: Pick<PublishRequest, 'text' | 'media'>,
): RuleProblem[] {
  return postBodyProblems(network, {
    text: request.text,
    media: request.media.map((m) => ({
      fileName: m.fileName,
      mimeType: m.mimeType,
      size: m.size,
      width: m.width,
      height: m.height,
      durationSec: m.durationSec,
    })),
  }).filter((p) => !p.rule.endsWith('.text-length'));
}

/** Throws the first problem of `publishRuleProblems` as a refusal (nothing was sent). */
export function refuseByRules(network: string, request: Pick<PublishRequest, 'text' | 'media'>) {
  const [problem] = publishRuleProblems(network, request);
  if (problem) throw new PlatformError('bad_request', problem.message, { code: problem.rule });
}
