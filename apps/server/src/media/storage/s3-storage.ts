import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type * as S3Module from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { MediaStorageConfig } from '../../config.js';
import {
  assertValidKey,
  type ByteRange,
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
}

type S3Sdk = typeof S3Module;

const isNotFound = (sdk: S3Sdk, err: unknown) =>
  err instanceof sdk.S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** S3 allows at most 1000 keys per DeleteObjects call. */
const DELETE_BATCH = 1000;

/** Media in an S3 bucket (AWS or any S3-compatible store: MinIO, R2, Garage…). */
export class S3Storage implements StorageDriver {
  private readonly clientConfig: S3ClientConfig;
  /** The AWS SDK and the client, loaded at the first call: the SDK costs start time. */
  private loaded?: Promise<{ sdk: S3Sdk; client: S3Client }>;
  private client?: S3Client;
  private closed = false;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(config: S3Config, options: S3StorageOptions = {}) {
    this.bucket = config.bucket;
    this.partSize = options.partSize ?? 8 * 1024 * 1024;
    this.queueSize = options.queueSize ?? 2;
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

  async put(key: string, source: string | Readable, options: PutOptions): Promise<void> {
    assertValidKey(key);
    const [{ client }, { Upload }] = await Promise.all([this.s3(), import('@aws-sdk/lib-storage')]);
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
      throw err;
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
      throw err;
    }
  }

  async remove(keys: string[]): Promise<void> {
    keys.forEach(assertValidKey);
    if (keys.length === 0) return;
    const { sdk, client } = await this.s3();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const answer = await client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length)
        throw new Error(
          `S3 could not delete ${failed.length} media file(s): ${failed[0]?.Code ?? ''} ${failed[0]?.Message ?? ''}`.trim(),
        );
    }
  }

  close(): void {
    this.closed = true;
    this.client?.destroy();
  }
}
