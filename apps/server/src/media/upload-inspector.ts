import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { formatFileSize } from '@herald/contract';
import { AppError } from '../lib/app-error.js';
import { SNIFF_BYTES, sniffMedia, type SniffResult } from './sniff.js';

type Accepted = Extract<SniffResult, { accepted: true }>;

/**
 * Sits between the upload and its temp file: counts and hashes the bytes, and decides what the
 * file is from its first bytes — refusing a file that is too large or not media as soon as that
 * is known, not after the whole body has arrived.
 */
export class UploadInspector extends Transform {
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headLength = 0;
  bytes = 0;
  sniffed: Accepted | null = null;

  constructor(
    private readonly fileName: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  private digest: string | null = null;

  /** The SHA-256 of every byte seen; read once the stream has ended. */
  get sha256(): string {
    this.digest ??= this.hash.digest('hex');
    return this.digest;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(
        new AppError(
          'PAYLOAD_TOO_LARGE',
          `${this.fileName} is too large: Herald accepts files up to ${formatFileSize(this.maxBytes)}.`,
        ),
      );
      return;
    }
    this.hash.update(chunk);
    if (!this.sniffed) {
      this.head.push(chunk);
      this.headLength += chunk.length;
      if (this.headLength >= SNIFF_BYTES) {
        const refusal = this.decide();
        if (refusal) return done(refusal);
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.sniffed ? null : this.decide());
  }

  private decide(): AppError | null {
    const result = sniffMedia(Buffer.concat(this.head).subarray(0, SNIFF_BYTES));
    this.head = [];
    if (result.accepted) {
      this.sniffed = result;
      return null;
    }
    return new AppError(
      'VALIDATION_FAILED',
      `${this.fileName} is not an image or video Herald can read (its content looks like ${result.description}).`,
    );
  }
}
