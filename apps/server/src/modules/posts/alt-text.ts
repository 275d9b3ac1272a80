import { altTextLimitFor, mediaGoesTo } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';

/** One file of a post as the alt text rules see it: its key in `altTexts` and who gets it. */
export interface AltTextFile {
  /** The new file's index as text, or the kept file's id. */
  key: string;
  /** 1-based, as the composer shows the files. */
  number: number;
  owners: readonly string[] | null;
}

/** An account the post goes to, with its network's name (X, LinkedIn…). */
export interface AltTextTarget {
  integrationId: string | null;
  platformId: string;
  networkName: string;
}

/**
 * The alt text of each file (docs/product.md#alt-text), checked: `altTexts` may only name files
 * of the post, and each text must fit every network its file goes to. Empty texts are none.
 */
export function settleAltTexts(
  altTexts: Record<string, string> | undefined,
  files: AltTextFile[],
  targets: AltTextTarget[],
): Map<string, string | null> {
  const known = new Set(files.map((f) => f.key));
  for (const key of Object.keys(altTexts ?? {})) {
    if (!known.has(key)) {
      throw new AppError(
        'VALIDATION_FAILED',
        /^\d+$/.test(key)
          ? `altTexts refers to file ${Number(key) + 1}, but only ${files.length} file${files.length === 1 ? ' is' : 's are'} in this post.`
          : 'altTexts names a file that is not in this post; use a new file’s index or a kept file’s id.',
      );
    }
  }
  const settled = new Map<string, string | null>();
  for (const file of files) {
    const text = altTexts?.[file.key]?.trim() || null;
    if (text) {
      const networks = targets.filter((t) => mediaGoesTo(file.owners, t)).map((t) => t.networkName);
      const limit = altTextLimitFor(networks);
      if (text.length > limit) {
        throw new AppError(
          'VALIDATION_FAILED',
          `The alt text of file ${file.number} has ${text.length} characters; ${networks.length === 1 ? `${networks[0]} takes` : `${[...new Set(networks)].join(', ')} take`} at most ${limit}.`,
        );
      }
    }
    settled.set(file.key, text);
  }
  return settled;
}
