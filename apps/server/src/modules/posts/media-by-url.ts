import type { Readable } from 'node:stream';
import type { MediaByUrl } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia, MediaStore } from '../../media/media-store.js';
import { FetchRefused, precheckUrl, safeFetch } from '../../media/safe-fetch.js';
import { keysOf } from './posts.upload.js';

/** The guarded fetch's limits for media given by url (MEDIA_IMPORT_*, as the CSV import uses). */
export interface MediaImportLimits {
  maxBytes: number;
  allowPrivate: readonly string[];
}

const refusal = (index: number, url: string, why: string) =>
  new AppError('VALIDATION_FAILED', `media[${index}]: the file at ${url} ${why}`);

/**
 * The checks of the urls that need no network (scheme, a literal private address), all of them
 * before the first download, so a request that names a bad url fetches nothing.
 */
export function precheckMediaUrls(media: readonly MediaByUrl[], limits: MediaImportLimits) {
  media.forEach(({ url }, index) => {
    try {
      precheckUrl(url, limits.allowPrivate);
    } catch (error) {
      if (error instanceof FetchRefused) throw refusal(index, url, error.message);
      throw error;
    }
  });
}

/**
 * Downloads each file through the one SSRF guard and stores it as an upload is stored (the
 * media store sniffs its type and measures it), one at a time. All or nothing: when one url
 * fails, the files already stored are removed and the refusal names that url.
 */
export async function ingestMediaByUrl(
  media: readonly MediaByUrl[],
  store: MediaStore,
  organizationId: string,
  limits: MediaImportLimits,
  meter: (file: Readable) => Readable = (file) => file,
): Promise<IngestedMedia[]> {
  precheckMediaUrls(media, limits);
  const files: IngestedMedia[] = [];
  try {
    for (const [index, { url }] of media.entries()) {
      try {
        const fetched = await safeFetch(url, {
          maxBytes: limits.maxBytes,
          allowPrivate: limits.allowPrivate,
        });
        files.push(
          await store.ingest(meter(fetched.body), {
            organizationId,
            fileName: fetched.fileName,
            declaredMimeType: fetched.contentType,
          }),
        );
      } catch (error) {
        if (error instanceof FetchRefused) throw refusal(index, url, error.message);
        // The store's own refusals (a type it does not take, a file it cannot read) are 4xx.
        if (error instanceof AppError && error.statusCode < 500) {
          throw new AppError(
            error.code,
            `media[${index}]: the file at ${url}: ${error.message}`,
            error.details,
          );
        }
        throw error;
      }
    }
    return files;
  } catch (error) {
    await store.remove(keysOf(files));
    throw error;
  }
}

/** The alt texts of a JSON post: its `altTexts`, with each media entry's own `altText` added. */
export function altTextsWithMedia(
  altTexts: Record<string, string> | undefined,
  media: readonly MediaByUrl[],
  firstIndex = 0,
): Record<string, string> | undefined {
  const own = media.flatMap((m, i) =>
    m.altText === undefined ? [] : [[String(firstIndex + i), m.altText.trim()] as const],
  );
  if (own.length === 0) return altTexts;
  return { ...altTexts, ...Object.fromEntries(own) };
}
