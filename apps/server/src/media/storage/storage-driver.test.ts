import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { type S3TestServer, startS3Server } from '../../test/s3-server.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import { MediaStorageError, type StorageDriver } from './storage-driver.js';

const MiB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

interface Harness {
  driver: StorageDriver;
  /** Every stored key, however the driver lays them out. */
  listKeys(): Promise<string[]>;
  close(): Promise<void>;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

const harnesses: Array<{ name: string; open(): Promise<Harness> }> = [
  {
    name: 'LocalStorage',
    async open() {
      const root = await mkdtemp(join(tmpdir(), 'herald-local-'));
      return {
        driver: new LocalStorage(join(root, 'media')),
        listKeys: async () =>
          existsSync(join(root, 'media'))
            ? (await filesUnder(join(root, 'media'))).filter((f) => !/(^|\/)\./.test(f)).sort()
            : [],
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3Storage',
    async open() {
      const s3 = await startS3Server();
      const driver = new S3Storage(s3.storage, { partSize: 5 * MiB });
      return {
        driver,
        listKeys: () => s3.keys(),
        async close() {
          driver.close();
          await s3.close();
        },
      };
    },
  },
];

describe.each(harnesses)('storage driver contract: $name', ({ open }) => {
  let h: Harness;
  let scratch: string;
  beforeAll(async () => {
    h = await open();
    scratch = await mkdtemp(join(tmpdir(), 'herald-scratch-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('stores a file by path and gives back the same bytes, size and type', async () => {
    const bytes = randomBytes(70_000);
    const source = join(scratch, 'photo.jpg');
    await writeFile(source, bytes);
    await h.driver.put('org-1/photo.jpg', source, {
      contentType: 'image/jpeg',
      size: bytes.length,
    });

    expect(existsSync(source)).toBe(true); // not moved unless asked
    const got = await h.driver.get('org-1/photo.jpg');
    expect(got).toMatchObject({
      size: bytes.length,
      totalSize: bytes.length,
      contentType: 'image/jpeg',
    });
    expect(sha(await readAll(got.stream))).toBe(sha(bytes));
    expect(await h.driver.stat('org-1/photo.jpg')).toEqual({
      size: bytes.length,
      contentType: 'image/jpeg',
    });
  });

  it('streams a large body in and out without changing a byte', async () => {
    const bytes = randomBytes(12 * MiB + 123);
    await h.driver.put(
      'org-1/big.mp4',
      Readable.from([bytes.subarray(0, 3 * MiB), bytes.subarray(3 * MiB)]),
      {
        contentType: 'video/mp4',
        size: bytes.length,
      },
    );
    const got = await h.driver.get('org-1/big.mp4');
    expect(got.size).toBe(bytes.length);
    expect(sha(await readAll(got.stream))).toBe(sha(bytes));
  });

  it('serves byte ranges, inclusive at both ends, clamped to the object', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    await h.driver.put('org-1/range.bin', Readable.from([bytes]), {
      contentType: 'application/octet-stream',
      size: bytes.length,
    });
    const middle = await h.driver.get('org-1/range.bin', { start: 5, end: 9 });
    expect(middle).toMatchObject({ size: 5, totalSize: 20 });
    expect((await readAll(middle.stream)).toString()).toBe('56789');

    const tail = await h.driver.get('org-1/range.bin', { start: 15 });
    expect(tail.size).toBe(5);
    expect((await readAll(tail.stream)).toString()).toBe('fghij');

    const clamped = await h.driver.get('org-1/range.bin', { start: 18, end: 1000 });
    expect((await readAll(clamped.stream)).toString()).toBe('ij');

    expect((await rejection(h.driver.get('org-1/range.bin', { start: 20 }))).code).toBe(
      'BAD_REQUEST',
    );
  });

  it('replaces an object put twice under one key', async () => {
    await h.driver.put('org-2/a.txt', Readable.from([Buffer.from('first')]), {
      contentType: 'text/plain',
      size: 5,
    });
    await h.driver.put('org-2/a.txt', Readable.from([Buffer.from('second!')]), {
      contentType: 'image/png',
      size: 7,
    });
    const got = await h.driver.get('org-2/a.txt');
    expect(got.contentType).toBe('image/png');
    expect((await readAll(got.stream)).toString()).toBe('second!');
  });

  it('answers NOT_FOUND for a key that does not exist', async () => {
    expect((await rejection(h.driver.get('org-1/nothing.jpg'))).code).toBe('NOT_FOUND');
    expect((await rejection(h.driver.stat('org-1/nothing.jpg'))).code).toBe('NOT_FOUND');
    expect((await rejection(h.driver.get('org-1'))).code).toBe('NOT_FOUND');
  });

  it('removes objects, ignoring keys that are already gone', async () => {
    await h.driver.put('org-3/x.bin', Readable.from([Buffer.from('x')]), {
      contentType: 'application/octet-stream',
      size: 1,
    });
    await h.driver.put('org-3/y.bin', Readable.from([Buffer.from('y')]), {
      contentType: 'application/octet-stream',
      size: 1,
    });
    await h.driver.remove(['org-3/x.bin', 'org-3/never-was.bin']);
    expect((await rejection(h.driver.get('org-3/x.bin'))).code).toBe('NOT_FOUND');
    expect((await h.driver.stat('org-3/y.bin')).size).toBe(1);
    await h.driver.remove(['org-3/x.bin', 'org-3/y.bin']);
    await h.driver.remove(['org-3/y.bin']);
    await h.driver.remove([]);
    expect((await h.listKeys()).filter((k) => k.startsWith('org-3/'))).toEqual([]);
  });

  it('passes its start-up check and leaves nothing behind', async () => {
    const before = await h.listKeys();
    await h.driver.check();
    expect(await h.listKeys()).toEqual(before);
  });

  it.each([
    '../escape.jpg',
    'org-1/../../escape.jpg',
    '/etc/passwd',
    'org-1/.hidden',
    'org-1//double',
    'org-1\\windows.jpg',
    '',
    'org-1/',
    'org 1/space.jpg',
  ])('refuses the key %j before touching storage', async (key) => {
    const before = await h.listKeys();
    const put = h.driver.put(key, Readable.from([Buffer.from('evil')]), {
      contentType: 'text/plain',
      size: 4,
    });
    expect((await rejection(put)).code).toBe('BAD_REQUEST');
    expect((await rejection(h.driver.get(key))).code).toBe('BAD_REQUEST');
    expect((await rejection(h.driver.remove([key]))).code).toBe('BAD_REQUEST');
    expect(await h.listKeys()).toEqual(before);
  });
});

describe('LocalStorage specifics', () => {
  it('moves a file when asked and leaves no temp files behind', async () => {
    const root = await mkdtemp(join(tmpdir(), 'herald-local-'));
    try {
      const storage = new LocalStorage(join(root, 'media'));
      const source = join(root, 'upload.tmp');
      await writeFile(source, 'abc');
      await storage.put('org/f.gif', source, { contentType: 'image/gif', size: 3, move: true });
      expect(existsSync(source)).toBe(false);
      expect((await filesUnder(join(root, 'media'))).sort()).toEqual([
        'org/.f.gif.type',
        'org/f.gif',
      ]);
      expect(existsSync(join(root, 'escape.jpg'))).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('leaves nothing when the source stream fails half-way', async () => {
    const root = await mkdtemp(join(tmpdir(), 'herald-local-'));
    try {
      const storage = new LocalStorage(root);
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(
        storage.put('org/broken.mp4', failing, { contentType: 'video/mp4', size: 5000 }),
      ).rejects.toThrow('client went away');
      expect((await filesUnder(root)).filter((f) => !f.endsWith('.type'))).toEqual([]);
      expect((await rejection(storage.get('org/broken.mp4'))).code).toBe('NOT_FOUND');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('fails its start-up check with a sentence naming MEDIA_DIR when the folder cannot be made', async () => {
    const root = await mkdtemp(join(tmpdir(), 'herald-local-'));
    try {
      await writeFile(join(root, 'a-file'), 'not a folder');
      const storage = new LocalStorage(join(root, 'a-file', 'media'));
      const err = await storage.check().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaStorageError);
      expect((err as Error).message).toBe(
        `Media cannot be stored in ${join(root, 'a-file', 'media')} (ENOTDIR): set MEDIA_DIR to a folder this server may write, or give it write access there.`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('S3Storage specifics', () => {
  let s3: S3TestServer;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startS3Server('media');
    storage = new S3Storage(s3.storage, { partSize: 5 * MiB });
  });
  afterAll(async () => {
    storage.close();
    await s3.close();
  });

  it('uploads a large stream in parts and completes the multipart upload', async () => {
    s3.operations.length = 0;
    const bytes = randomBytes(11 * MiB);
    await storage.put('org/parts.mp4', Readable.from([bytes]), {
      contentType: 'video/mp4',
      size: bytes.length,
    });
    expect(s3.operations).toContain('CreateMultipartUpload');
    expect(s3.operations.filter((o) => o === 'UploadPart')).toHaveLength(3);
    expect(s3.operations).toContain('CompleteMultipartUpload');
    expect(await s3.openUploads()).toBe(0);
    expect(sha(await readAll((await storage.get('org/parts.mp4')).stream))).toBe(sha(bytes));
  });

  it('aborts the multipart upload when a part fails, leaving nothing', async () => {
    s3.failNext('UploadPart');
    const bytes = randomBytes(11 * MiB);
    await expect(
      storage.put('org/failed.mp4', Readable.from([bytes]), {
        contentType: 'video/mp4',
        size: bytes.length,
      }),
    ).rejects.toThrow();
    expect(s3.operations).toContain('AbortMultipartUpload');
    expect(await s3.openUploads()).toBe(0);
    expect(await s3.keys()).not.toContain('org/failed.mp4');
  });
});
