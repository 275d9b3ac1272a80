import {
  checkMediaCount,
  checkMediaFile,
  MAX_FILES_PER_POST,
  TOO_MANY_FILES_MESSAGE,
  type MediaConstraints,
  type MediaFacts,
} from '@herald/contract';
import type { MediaItem } from './media-files';

/** A network the new files will go to, with the files it already gets. */
export interface MediaTarget {
  name: string;
  constraints: MediaConstraints | null;
  current: readonly MediaFacts[];
}

/** Why files were left out: a sentence of docs/product.md#media-rules, the files it concerns, and the networks that say it. */
export interface MediaRejection {
  message: string;
  fileNames: string[];
  platforms: string[];
}

interface AcceptInput {
  candidates: readonly MediaItem[];
  /**
   * The networks the files go to. With none selected yet, pass one target without constraints:
   * the default types of docs/product.md#media-rules then apply.
   */
  targets: readonly MediaTarget[];
  /** Files the post already uploads, all networks together (the post's file cap counts these). */
  uploadedCount: number;
}

/** One entry per sentence, so five files over the cap make one toast, not five. */
function addRejection(list: MediaRejection[], fileName: string, message: string, platform: string) {
  let entry = list.find((r) => r.message === message);
  if (!entry) {
    entry = { message, fileNames: [], platforms: [] };
    list.push(entry);
  }
  if (!entry.fileNames.includes(fileName)) entry.fileNames.push(fileName);
  if (platform && !entry.platforms.includes(platform)) entry.platforms.push(platform);
}

/**
 * docs/product.md#media-rules "Invalid files are skipped and valid ones are added": runs the contract's rules for
 * each new file on every target network, in order, so a file that would break a count rule
 * (X's four images, one video on Facebook) is refused while the ones before it stay. Files past
 * MAX_FILES_PER_POST are refused with the sentence of docs/product.md#media-rules.
 */
export function acceptMedia({ candidates, targets, uploadedCount }: AcceptInput) {
  const accepted: MediaItem[] = [];
  const rejections: MediaRejection[] = [];
  for (const candidate of candidates) {
    const { fileName } = candidate.facts;
    if (uploadedCount + accepted.length >= MAX_FILES_PER_POST) {
      addRejection(rejections, fileName, TOO_MANY_FILES_MESSAGE, '');
      continue;
    }
    let refused = false;
    for (const target of targets) {
      for (const message of checkMediaFile(candidate.facts, target.constraints)) {
        refused = true;
        addRejection(rejections, fileName, message, target.name);
      }
    }
    if (!refused) {
      for (const target of targets) {
        const before = [...target.current, ...accepted.map((item) => item.facts)];
        const had = new Set(checkMediaCount(before, target.constraints, target.name));
        const now = checkMediaCount([...before, candidate.facts], target.constraints, target.name);
        for (const message of now.filter((m) => !had.has(m) && m !== TOO_MANY_FILES_MESSAGE)) {
          refused = true;
          addRejection(rejections, fileName, message, target.name);
        }
      }
    }
    if (!refused) accepted.push(candidate);
  }
  return { accepted, rejections };
}
