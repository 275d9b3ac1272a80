import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

const TYPE_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
};

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Media in a folder, one file per key. Writes go to a hidden temp file beside the target and are
 * renamed into place, so a reader never sees half a file. The content type sits in a hidden
 * `.<name>.type` file next to it (keys cannot start with a dot, so neither can collide with one).
 */
export class LocalStorage implements StorageDriver {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    const path = resolve(this.root, key);
    // The key pattern already forbids `..`; this is the second lock on the same door.
    if (!path.startsWith(this.root + sep))
      throw new AppError('BAD_REQUEST', `"${key.slice(0, 80)}" is not a valid media key.`);
    return path;
  }

  private static typePathOf(path: string) {
    return join(dirname(path), `.${basename(path)}.type`);
  }

  private static tempPathOf(path: string) {
    return join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  }

  async put(key: string, source: string | Readable, options: PutOptions): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const typeTemp = LocalStorage.tempPathOf(target);
    await writeFile(typeTemp, options.contentType);
    await rename(typeTemp, LocalStorage.typePathOf(target));

    if (typeof source === 'string' && options.move) {
      try {
        await rename(source, target);
        return;
      } catch (err) {
        // Another disk: fall back to copying.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
    }
    const temp = LocalStorage.tempPathOf(target);
    try {
      if (typeof source === 'string') await copyFile(source, temp);
      else await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  private async contentTypeOf(path: string): Promise<string> {
    try {
      return (await readFile(LocalStorage.typePathOf(path), 'utf8')).trim();
    } catch (err) {
      if (!isMissing(err)) throw err;
      return TYPE_BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream';
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    const path = this.pathOf(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isMissing(err)) throw missingObject();
      throw err;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw missingObject();
      const totalSize = info.size;
      const contentType = await this.contentTypeOf(path);
      const { start, end } = range ? resolveRange(range, totalSize) : { start: 0, end: -1 };
      const stream = range ? handle.createReadStream({ start, end }) : handle.createReadStream();
      return { stream, size: range ? end - start + 1 : totalSize, totalSize, contentType };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number; contentType: string }> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) throw missingObject();
      return { size: info.size, contentType: await this.contentTypeOf(path) };
    } catch (err) {
      if (isMissing(err)) throw missingObject();
      throw err;
    }
  }

  async check(): Promise<void> {
    const probe = join(this.root, `.${CHECK_KEY}.${randomUUID()}.tmp`);
    try {
      await mkdir(this.root, { recursive: true });
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new MediaStorageError(
        `Media cannot be stored in ${this.root} (${code}): set MEDIA_DIR to a folder this server may write, or give it write access there.`,
      );
    }
  }

  async remove(keys: string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key));
    for (const path of paths) {
      await rm(path, { force: true });
      await rm(LocalStorage.typePathOf(path), { force: true });
    }
  }
}
