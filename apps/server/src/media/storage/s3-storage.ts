import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type * as S3Module from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { MediaStorageConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import {
  assertValidKey,
  type ByteRange,
  CHECK_KEY,
  MediaStorageError,
  missingObject,
  type PutOptions,
  resolveRange,
  type StorageDriver,
  type StoredObject,
} from './storage-driver.js';

type S3Config = Extract<MediaStorageConfig, { driver: 's3' }>;

export interface S3StorageOptions {
  /** Multipart part size; at least 5 MiB (S3's minimum). Memory held is partSize × queueSize. */
  partSize?: number;
  queueSize?: number;
  /** How long the start-up check waits for S3: an endpoint that never answers must not hang it. */
  checkTimeoutMs?: number;
}

type S3Sdk = typeof S3Module;

/** A missing object; a missing bucket is a setting to fix, not a file that was removed. */
const isNotFound = (sdk: S3Sdk, err: unknown) =>
  err instanceof sdk.S3ServiceException &&
  err.name !== 'NoSuchBucket' &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** S3 allows at most 1000 keys per DeleteObjects call. */
const DELETE_BATCH = 1000;

/** Errors of the connection itself: S3 was not reached, whatever the request. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const networkCodeOf = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code && NETWORK_CODES.has(code) ? code : null;
};

/** Media in an S3 bucket (AWS or any S3-compatible store: MinIO, R2, Garage…). */
export class S3Storage implements StorageDriver {
  private readonly clientConfig: S3ClientConfig;
  /** The AWS SDK and the client, loaded at the first call: the SDK costs start time. */
  private loaded?: Promise<{ sdk: S3Sdk; client: S3Client }>;
  private client?: S3Client;
  private closed = false;
  private readonly bucket: string;
  /** Where S3 is, as the sentences about it name it. */
  private readonly where: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly checkTimeoutMs: number;

  constructor(config: S3Config, options: S3StorageOptions = {}) {
    this.bucket = config.bucket;
    this.where = config.endpoint ?? `AWS (region ${config.region})`;
    this.partSize = options.partSize ?? 8 * 1024 * 1024;
    this.queueSize = options.queueSize ?? 2;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 10_000;
    this.clientConfig = {
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible stores refuse the others.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
  }

  private s3() {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => {
      const client = new sdk.S3Client(this.clientConfig);
      // Closed while the SDK loaded: the client must not keep sockets open.
      if (this.closed) client.destroy();
      this.client = client;
      return { sdk, client };
    });
    return this.loaded;
  }

  /**
   * What went wrong, as a sentence naming the setting to fix: S3's own error codes for a missing
   * bucket or refused credentials, the connection's code when S3 was not reached.
   */
  private describe(sdk: S3Sdk, err: unknown): string | null {
    const where = this.where;
    if (err instanceof sdk.S3ServiceException) {
      const status = err.$metadata.httpStatusCode;
      if (err.name === 'NoSuchBucket')
        return `The S3 bucket "${this.bucket}" does not exist at ${where}: create it, or set S3_BUCKET to an existing bucket.`;
      if (err.name === 'InvalidAccessKeyId')
        return `S3 at ${where} does not know the access key in S3_ACCESS_KEY_ID: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`;
      if (err.name === 'SignatureDoesNotMatch')
        return `S3 at ${where} refused the signature made with S3_SECRET_ACCESS_KEY: check that it is the secret of S3_ACCESS_KEY_ID.`;
      if (err.name === 'AccessDenied' || status === 403)
        return `S3 at ${where} denied access to the bucket "${this.bucket}": the credentials must be allowed to read, write and delete its objects.`;
      return `S3 at ${where} refused a request on the bucket "${this.bucket}" (${err.name}${err.message ? `: ${err.message}` : ''}).`;
    }
    const code = networkCodeOf(err);
    if (code)
      return `S3 could not be reached at ${where} (${code}): check S3_ENDPOINT and that the storage server is running.`;
    return null;
  }

  /**
   * Storage that refuses or cannot be reached answers 503 with what to fix, not a 500; errors
   * that are not S3's (a source stream that broke) pass on unchanged.
   */
  private unavailable(sdk: S3Sdk, err: unknown): unknown {
    if (err instanceof AppError) return err;
    const sentence = this.describe(sdk, err);
    if (!sentence) return err;
    const answer = new AppError('UNAVAILABLE', `Media storage is unavailable: ${sentence}`);
    answer.cause = err;
    return answer;
  }

  async put(key: string, source: string | Readable, options: PutOptions): Promise<void> {
    assertValidKey(key);
    const [{ sdk, client }, { Upload }] = await Promise.all([
      this.s3(),
      import('@aws-sdk/lib-storage'),
    ]);
    const body = typeof source === 'string' ? createReadStream(source) : source;
    // Streams in parts of partSize: a large file never sits in memory whole.
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      throw this.unavailable(sdk, err);
    } finally {
      if (body !== source) body.destroy();
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    assertValidKey(key);
    let resolved: { start: number; end: number } | undefined;
    if (range) resolved = resolveRange(range, (await this.stat(key)).size);
    const { sdk, client } = await this.s3();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(resolved ? { Range: `bytes=${resolved.start}-${resolved.end}` } : {}),
        }),
      );
      const size = answer.ContentLength ?? 0;
      const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
      return {
        stream: answer.Body as Readable,
        size,
        totalSize: total ? Number(total) : size,
        contentType: answer.ContentType ?? 'application/octet-stream',
      };
    } catch (err) {
      if (isNotFound(sdk, err)) throw missingObject();
      throw this.unavailable(sdk, err);
    }
  }

  async stat(key: string): Promise<{ size: number; contentType: string }> {
    assertValidKey(key);
    const { sdk, client } = await this.s3();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? 'application/octet-stream',
      };
    } catch (err) {
      if (isNotFound(sdk, err)) throw missingObject();
      throw this.unavailable(sdk, err);
    }
  }

  async remove(keys: string[]): Promise<void> {
    keys.forEach(assertValidKey);
    if (keys.length === 0) return;
    const { sdk, client } = await this.s3();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const answer = await client
        .send(
          new sdk.DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        )
        .catch((err: unknown) => {
          throw this.unavailable(sdk, err);
        });
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length)
        throw new Error(
          `S3 could not delete ${failed.length} media file(s): ${failed[0]?.Code ?? ''} ${failed[0]?.Message ?? ''}`.trim(),
        );
    }
  }

  /**
   * Writes and removes one small object: what every upload needs (the bucket, credentials
   * allowed to write and delete), without needing the right to list the bucket.
   */
  async check(): Promise<void> {
    const { sdk, client } = await this.s3();
    const abortSignal = AbortSignal.timeout(this.checkTimeoutMs);
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: CHECK_KEY,
          Body: 'Herald checks at start that it can store media here.',
          ContentType: 'text/plain',
        }),
        { abortSignal },
      );
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: CHECK_KEY }), {
        abortSignal,
      });
    } catch (err) {
      if (abortSignal.aborted)
        throw new MediaStorageError(
          `S3 at ${this.where} did not answer within ${this.checkTimeoutMs / 1000} seconds: check S3_ENDPOINT and the network between this server and it.`,
        );
      throw new MediaStorageError(
        this.describe(sdk, err) ??
          `Media cannot be stored in the S3 bucket "${this.bucket}" at ${this.where}: ${(err as Error).message}`,
      );
    }
  }

  close(): void {
    this.closed = true;
    this.client?.destroy();
  }
}
