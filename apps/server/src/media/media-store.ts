import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { AppError } from '../lib/app-error.js';
import { loadSharp } from '../lib/sharp.js';
import { measureImage, measureVideo } from './measure.js';
import { MediaTools } from './media-tools.js';
import { checkMediaSignature, signMediaKey, type UrlCheck } from './media-url.js';
import { LocalStorage } from './storage/local-storage.js';
import { S3Storage } from './storage/s3-storage.js';
import {
  assertValidKey,
  type ByteRange,
  type StorageDriver,
  type StoredObject,
} from './storage/storage-driver.js';
import {
  imageThumbnail,
  THUMBNAIL_CONTENT_TYPE,
  THUMBNAIL_EXTENSION,
  videoThumbnail,
} from './thumbnail.js';
import { UploadInspector } from './upload-inspector.js';

export interface IngestedMedia {
  storageKey: string;
  thumbnailKey: string | null;
  fileName: string;
  /** Sniffed from the bytes, never the declared type or the name. */
  mimeType: string;
  kind: 'image' | 'video';
  size: number;
  width: number | null;
  height: number | null;
  durationSec: number | null;
  sha256: string;
  /** The media library item whose stored copy this is, when the file was chosen from the library. */
  libraryItemId?: string;
}

export interface IngestMeta {
  organizationId: string;
  fileName: string;
  /** What the browser said; recorded nowhere and trusted for nothing. */
  declaredMimeType?: string;
}

export interface MediaStoreOptions {
  /** Where uploads are written while they are checked. */
  tempDir: string;
  maxFileBytes: number;
  urlTtlSeconds: number;
  /** Signed URLs are absolute under this (`<apiPublicUrl>/media/<key>`). */
  apiPublicUrl: string;
  tools: MediaTools;
  /** Milliseconds since the epoch (tests move the clock). */
  now?: () => number;
}

/** Organization ids become the first segment of a storage key. */
const ORGANIZATION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The name as the person knows it: no folders, no control characters, not absurdly long. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(0, 255) || 'upload';
}

/**
 * Media files of every organization: takes uploads in (checked, measured, thumbnailed), hands
 * them out by signed URL, and removes them. Storage is a driver (local folder or S3).
 */
export class MediaStore {
  private readonly now: () => number;

  constructor(
    private readonly driver: StorageDriver,
    private readonly signingKey: string,
    private readonly options: MediaStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Streams an upload to a temp file while hashing and sniffing it, measures it, makes its
   * thumbnail and moves both into storage. The whole file is never held in memory. On any
   * failure (not media, too large, the stream broke, storage refused) nothing is left behind.
   */
  async ingest(body: Readable, meta: IngestMeta): Promise<IngestedMedia> {
    if (!ORGANIZATION_ID.test(meta.organizationId))
      throw new AppError('BAD_REQUEST', 'The organization id is not valid for storing media.');
    const fileName = cleanFileName(meta.fileName);
    const id = randomUUID();
    await mkdir(this.options.tempDir, { recursive: true });
    const tempPath = join(this.options.tempDir, `${id}.upload`);
    try {
      const inspector = new UploadInspector(fileName, this.options.maxFileBytes);
      // Created here, before streaming starts, so the cleanup below always finds it.
      const handle = await open(tempPath, 'wx');
      try {
        await pipeline(body, inspector, handle.createWriteStream());
      } finally {
        await handle.close().catch(() => {});
      }
      const sniffed = inspector.sniffed;
      if (!sniffed) throw new Error('The upload ended without being sniffed.');

      const { tools } = this.options;
      const measured =
        sniffed.kind === 'image'
          ? await measureImage(tempPath, fileName)
          : await measureVideo(tempPath, sniffed.mimeType, tools);
      const thumbnail =
        sniffed.kind === 'image'
          ? await imageThumbnail(tempPath)
          : await videoThumbnail(tempPath, measured, tools);

      const storageKey = `${meta.organizationId}/${id}.${sniffed.extension}`;
      const thumbnailKey = thumbnail
        ? `${meta.organizationId}/${id}.thumb.${THUMBNAIL_EXTENSION}`
        : null;
      try {
        await this.driver.put(storageKey, tempPath, {
          contentType: sniffed.mimeType,
          size: inspector.bytes,
          move: true,
        });
        if (thumbnail && thumbnailKey)
          await this.driver.put(thumbnailKey, Readable.from([thumbnail]), {
            contentType: THUMBNAIL_CONTENT_TYPE,
            size: thumbnail.length,
          });
      } catch (err) {
        await this.driver
          .remove(thumbnailKey ? [storageKey, thumbnailKey] : [storageKey])
          .catch(() => {});
        throw err;
      }
      return {
        storageKey,
        thumbnailKey,
        fileName,
        mimeType: sniffed.mimeType,
        kind: sniffed.kind,
        size: inspector.bytes,
        width: measured.width,
        height: measured.height,
        durationSec: measured.durationSec,
        sha256: inspector.sha256,
      };
    } finally {
      await rm(tempPath, { force: true });
    }
  }

  /**
   * Takes in a small picture of one of `limits.types` (an organization's logo) as `ingest` takes
   * a post's files — streamed to a temp file, sniffed from its bytes, refused past
   * `limits.maxBytes`, decoded and measured — and stores it under `<organization>/<name>-<id>`,
   * without a thumbnail. Nothing is left behind on a refusal.
   */
  async ingestImage(
    body: Readable,
    meta: IngestMeta & { name: string },
    limits: { maxBytes: number; types: readonly string[]; typeMessage: string },
  ): Promise<Omit<IngestedMedia, 'thumbnailKey' | 'durationSec' | 'kind'>> {
    if (!ORGANIZATION_ID.test(meta.organizationId))
      throw new AppError('BAD_REQUEST', 'The organization id is not valid for storing media.');
    const fileName = cleanFileName(meta.fileName);
    const id = randomUUID();
    await mkdir(this.options.tempDir, { recursive: true });
    const tempPath = join(this.options.tempDir, `${id}.upload`);
    try {
      const inspector = new UploadInspector(fileName, limits.maxBytes);
      const handle = await open(tempPath, 'wx');
      try {
        await pipeline(body, inspector, handle.createWriteStream());
      } catch (error) {
        // Not media at all: the inspector's sentence says what it looked like; add what is taken.
        if (error instanceof AppError && error.code === 'VALIDATION_FAILED')
          throw new AppError('VALIDATION_FAILED', `${error.message} ${limits.typeMessage}`);
        throw error;
      } finally {
        await handle.close().catch(() => {});
      }
      const sniffed = inspector.sniffed;
      if (!sniffed) throw new Error('The upload ended without being sniffed.');
      if (!limits.types.includes(sniffed.mimeType))
        throw new AppError(
          'VALIDATION_FAILED',
          `${fileName} is ${sniffed.kind === 'video' ? 'a video' : `a ${sniffed.extension.toUpperCase()} image`}. ${limits.typeMessage}`,
        );
      const measured = await measureImage(tempPath, fileName);
      const storageKey = `${meta.organizationId}/${meta.name}-${id}.${sniffed.extension}`;
      await this.driver.put(storageKey, tempPath, {
        contentType: sniffed.mimeType,
        size: inspector.bytes,
        move: true,
      });
      return {
        storageKey,
        fileName,
        mimeType: sniffed.mimeType,
        size: inspector.bytes,
        width: measured.width,
        height: measured.height,
        sha256: inspector.sha256,
      };
    } finally {
      await rm(tempPath, { force: true });
    }
  }

  /**
   * Cuts `area` (in displayed pixels, after the EXIF orientation) out of a stored image, scales
   * it down so its longest side is at most `maxSide`, and stores the result as a new upload
   * (checked, measured and thumbnailed like any other). The stored original is left as it was.
   */
  async cropImage(
    key: string,
    meta: IngestMeta,
    area: { left: number; top: number; width: number; height: number },
    maxSide?: number,
  ): Promise<IngestedMedia> {
    const [original, sharp] = await Promise.all([this.readAll(key), loadSharp()]);
    const { contentType } = await this.driver.stat(key);
    let image = sharp(original).autoOrient().extract(area);
    if (maxSide && Math.max(area.width, area.height) > maxSide) {
      image = image.resize({ width: maxSide, height: maxSide, fit: 'inside' });
    }
    // PNG and WebP keep their transparency; everything else (GIF frames too) becomes a JPEG.
    const cropped =
      contentType === 'image/png'
        ? await image.png().toBuffer()
        : contentType === 'image/webp'
          ? await image.webp().toBuffer()
          : await image.jpeg({ quality: 90 }).toBuffer();
    return this.ingest(Readable.from([cropped]), meta);
  }

  /** A stored file's bytes, whole (for small files: a logo drawn into a report). */
  async readAll(key: string): Promise<Buffer> {
    const { stream } = await this.driver.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  /** Removes stored files (originals and thumbnails); keys already gone are ignored. */
  async remove(keys: string[]): Promise<void> {
    await this.driver.remove(keys);
  }

  /** An absolute URL that serves `key` to anyone holding it until it expires. */
  signedUrl(key: string, ttlSeconds = this.options.urlTtlSeconds): string {
    assertValidKey(key);
    const exp = Math.floor(this.now() / 1000) + ttlSeconds;
    const sig = signMediaKey(this.signingKey, key, exp);
    return `${this.options.apiPublicUrl}/media/${key}?exp=${exp}&sig=${sig}`;
  }

  /** Checks the `exp` and `sig` of a media URL for `key`. */
  checkUrl(key: string, exp: unknown, sig: unknown): UrlCheck {
    return checkMediaSignature(this.signingKey, key, exp, sig, Math.floor(this.now() / 1000));
  }

  /** Seconds until `expiresAt` (unix seconds), never more than the configured URL lifetime. */
  secondsUntil(expiresAt: number): number {
    const left = expiresAt - Math.floor(this.now() / 1000);
    return Math.max(0, Math.min(left, this.options.urlTtlSeconds));
  }

  /** The stored bytes (or a range of them). Throws NOT_FOUND for a key that does not exist. */
  async open(key: string, range?: ByteRange): Promise<StoredObject> {
    return this.driver.get(key, range);
  }

  /** Size and type of a stored file. Throws NOT_FOUND for a key that does not exist. */
  async stat(key: string): Promise<{ size: number; contentType: string }> {
    return this.driver.stat(key);
  }

  /** Proves at start that media can be stored; throws MediaStorageError saying what to fix. */
  check(): Promise<void> {
    return this.driver.check();
  }

  /** Releases the driver's connections (S3). */
  close(): void {
    this.driver.close?.();
  }
}

/** The store the configuration asks for: a local folder, or S3 when a bucket is configured. */
export function createMediaStore(
  config: Config,
  signingKey: string,
  options: { driver?: StorageDriver; now?: () => number } = {},
): MediaStore {
  const { storage } = config.media;
  const driver =
    options.driver ??
    (storage.driver === 's3' ? new S3Storage(storage) : new LocalStorage(storage.dir));
  return new MediaStore(driver, signingKey, {
    tempDir: config.media.tempDir,
    maxFileBytes: config.media.maxFileBytes,
    urlTtlSeconds: config.media.urlTtlSeconds,
    apiPublicUrl: config.apiPublicUrl,
    tools: new MediaTools(config.media.ffmpegPath, config.media.ffprobePath),
    now: options.now,
  });
}
