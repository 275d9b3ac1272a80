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
  'Send the text fields (integrationIds or platformIds, content, scheduledAt…) before the media files.';

export const MALFORMED_MULTIPART_MESSAGE =
  'The multipart body is malformed or ends early. Send the form again.';

/** An error of the multipart parser (a broken body: the client's fault) as a 400. */
function asRequestError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status < 500) return error;
  return new AppError('BAD_REQUEST', MALFORMED_MULTIPART_MESSAGE);
}

/** The parts, with the parser's own errors (truncated body, malformed part header) made 400s. */
async function* partsOf(parts: AsyncIterableIterator<Multipart>): AsyncGenerator<Multipart> {
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (error) {
        done = true;
        throw asRequestError(error);
      }
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await parts.return?.();
  }
}

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
    for await (const part of partsOf(parts)) {
      if (part.type === 'field') {
        if (checked) throw new AppError('VALIDATION_FAILED', FIELDS_FIRST_MESSAGE);
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (hasNul(value) || hasNul(part.fieldname))
          throw new AppError('VALIDATION_FAILED', NUL_MESSAGE);
        fields[part.fieldname] = value;
        continue;
      }
      // The file's own stream fails when the body breaks off inside it: that error is the client's.
      let streamError: unknown;
      part.file.once('error', (error) => (streamError = error));
      if (!checked) {
        checked = true;
        await checkFields(fields);
      }
      if (files.length >= MAX_FILES_PER_POST) {
        part.file.resume();
        throw new AppError('VALIDATION_FAILED', TOO_MANY_FILES_MESSAGE);
      }
      try {
        files.push(
          await media.ingest(meter(part.file), {
            organizationId,
            fileName: part.filename || `file-${files.length + 1}`,
            declaredMimeType: part.mimetype,
          }),
        );
      } catch (error) {
        throw error === (streamError ?? part.file.errored) ? asRequestError(error) : error;
      }
    }
    if (!checked) await checkFields(fields);
    return { fields, files };
  } catch (error) {
    await media.remove(keysOf(files));
    throw error;
  }
}
