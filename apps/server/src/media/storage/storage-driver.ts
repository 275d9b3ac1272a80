import type { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error.js';

/** A byte range, both ends inclusive (as in an HTTP Range header); `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface StoredObject {
  /** The bytes asked for: the whole object, or the range. */
  stream: Readable;
  /** How many bytes `stream` yields (the range's length when a range was asked for). */
  size: number;
  /** Size of the whole object. */
  totalSize: number;
  contentType: string;
}

export interface PutOptions {
  contentType: string;
  size: number;
  /**
   * The source is a file this driver may take over (rename instead of copy). Without it the file
   * is left where it is.
   */
  move?: boolean;
}

/** Where media bytes live. Every folder in `storage/` implements it; the media store picks one. */
export interface StorageDriver {
  /** Stores a file (by path) or a stream under `key`, replacing what was there. */
  put(key: string, source: string | Readable, options: PutOptions): Promise<void>;
  /** Opens an object, or a range of it. Throws NOT_FOUND when the key does not exist. */
  get(key: string, range?: ByteRange): Promise<StoredObject>;
  /** Size and type without the bytes. Throws NOT_FOUND when the key does not exist. */
  stat(key: string): Promise<{ size: number; contentType: string }>;
  /** Removes objects; keys that do not exist are ignored. */
  remove(keys: string[]): Promise<void>;
  /**
   * Proves at start that media can be stored: writes a small object and removes it. Throws
   * MediaStorageError with a sentence naming the setting to fix.
   */
  check(): Promise<void>;
  /** Releases connections, if the driver holds any. */
  close?(): void;
}

/**
 * Media cannot be stored with this configuration (missing bucket, refused credentials,
 * unreachable endpoint, unwritable folder): the process refuses to start with this sentence.
 */
export class MediaStorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaStorageError';
  }
}

/**
 * The key `check()` writes and removes: no upload can have it (uploads live under an
 * organization id).
 */
export const CHECK_KEY = 'herald-storage-check';

/**
 * Segments of letters, digits, `.`, `_`, `-`, each starting with a letter or digit: no `..`, no
 * absolute paths, no hidden files — the same key is safe as a path and as an S3 key.
 */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

const isValidKey = (key: string) => key.length <= 512 && KEY.test(key);

/** Refuses keys that could leave the storage root (`../`, absolute paths, hidden files). */
export function assertValidKey(key: string): void {
  if (!isValidKey(key))
    throw new AppError('BAD_REQUEST', `"${key.slice(0, 80)}" is not a valid media key.`);
}

export const missingObject = () =>
  new AppError('NOT_FOUND', 'This media file does not exist; it may have been removed.');

/** A range clamped to the object, with its inclusive end; refused when it starts past the end. */
export function resolveRange(range: ByteRange, totalSize: number): { start: number; end: number } {
  const end = Math.min(range.end ?? totalSize - 1, totalSize - 1);
  if (range.start < 0 || range.start > end || !Number.isInteger(range.start))
    throw new AppError(
      'BAD_REQUEST',
      `The range ${range.start}-${range.end ?? ''} is outside this ${totalSize}-byte file.`,
    );
  return { start: range.start, end };
}
