import type { Multipart } from '@fastify/multipart';
import { MAX_FILES_PER_POST, TOO_MANY_FILES_MESSAGE } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia, MediaStore } from '../../media/media-store.js';

export interface Upload {
  fields: Record<string, string>;
  files: IngestedMedia[];
}

/** Storage keys of ingested files, thumbnails included. */
export function keysOf(files: IngestedMedia[]): string[] {
  return files.flatMap((f) => (f.thumbnailKey ? [f.storageKey, f.thumbnailKey] : [f.storageKey]));
}

/**
 * Reads a multipart body part by part: text fields into a record, each file streamed through
 * the media store (never held whole in memory). If anything fails, the files already stored
 * are removed before the error goes on.
 */
export async function readUpload(
  parts: AsyncIterableIterator<Multipart>,
  media: MediaStore,
  organizationId: string,
): Promise<Upload> {
  const fields: Record<string, string> = {};
  const files: IngestedMedia[] = [];
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (files.length >= MAX_FILES_PER_POST) {
        part.file.resume();
        throw new AppError('VALIDATION_FAILED', TOO_MANY_FILES_MESSAGE);
      }
      files.push(
        await media.ingest(part.file, {
          organizationId,
          fileName: part.filename || `file-${files.length + 1}`,
          declaredMimeType: part.mimetype,
        }),
      );
    }
    return { fields, files };
  } catch (error) {
    await media.remove(keysOf(files));
    throw error;
  }
}
