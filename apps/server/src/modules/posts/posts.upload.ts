import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import { hasNul, MAX_FILES_PER_POST, NUL_MESSAGE, TOO_MANY_FILES_MESSAGE } from '@herald/contract';
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

export const FIELDS_FIRST_MESSAGE =
  'Send the text fields (platformIds, content, scheduledAt…) before the media files.';

/**
 * Reads a multipart body part by part: text fields into a record, each file streamed through
 * the media store (never held whole in memory). The text fields come first; `checkFields` sees
 * them before the first file byte is read (or at the end when there is no file), so a refusal
 * costs no upload. If anything fails, the files already stored are removed before the error
 * goes on. `meter` wraps each file stream (the upload byte budget counts through it).
 */
export async function readUpload(
  parts: AsyncIterableIterator<Multipart>,
  media: MediaStore,
  organizationId: string,
  checkFields: (fields: Record<string, string>) => Promise<void> = async () => {},
  meter: (file: Readable) => Readable = (file) => file,
): Promise<Upload> {
  const fields: Record<string, string> = {};
  const files: IngestedMedia[] = [];
  let checked = false;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (checked) throw new AppError('VALIDATION_FAILED', FIELDS_FIRST_MESSAGE);
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (hasNul(value) || hasNul(part.fieldname))
          throw new AppError('VALIDATION_FAILED', NUL_MESSAGE);
        fields[part.fieldname] = value;
        continue;
      }
      if (!checked) {
        checked = true;
        await checkFields(fields);
      }
      if (files.length >= MAX_FILES_PER_POST) {
        part.file.resume();
        throw new AppError('VALIDATION_FAILED', TOO_MANY_FILES_MESSAGE);
      }
      files.push(
        await media.ingest(meter(part.file), {
          organizationId,
          fileName: part.filename || `file-${files.length + 1}`,
          declaredMimeType: part.mimetype,
        }),
      );
    }
    if (!checked) await checkFields(fields);
    return { fields, files };
  } catch (error) {
    await media.remove(keysOf(files));
    throw error;
  }
}
