import { createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/server-process.js';
import { type S3TestServer, startS3Server } from '../../test/s3-server.js';
import { S3Storage } from './s3-storage.js';

/**
 * What an administrator reads when the S3 settings are wrong: one sentence naming the setting to
 * fix, at start (`check()`, which stops the process) and on a request (a 503, not a 500) —
 * against a real S3 server that checks signatures.
 */
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server('media');
});
afterAll(async () => {
  await s3.close();
});

type Storage = S3TestServer['storage'];
const wrong: Array<[string, (storage: Storage) => Storage, string]> = [
  [
    'a bucket that does not exist',
    (storage) => ({ ...storage, bucket: 'no-such-bucket' }),
    'The S3 bucket "no-such-bucket" does not exist at ENDPOINT: create it, or set S3_BUCKET to an existing bucket.',
  ],
  [
    'an access key S3 does not know',
    (storage) => ({
      ...storage,
      credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'whatever' },
    }),
    'S3 at ENDPOINT does not know the access key in S3_ACCESS_KEY_ID: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.',
  ],
  [
    'a wrong secret',
    (storage) => ({
      ...storage,
      credentials: { accessKeyId: storage.credentials!.accessKeyId, secretAccessKey: 'wrong' },
    }),
    'S3 at ENDPOINT refused the signature made with S3_SECRET_ACCESS_KEY: check that it is the secret of S3_ACCESS_KEY_ID.',
  ],
];

describe('S3 settings that cannot work', () => {
  it.each(wrong)('%s: the start-up check says what to fix', async (_, change, sentence) => {
    const storage = new S3Storage(change(s3.storage));
    try {
      await expect(storage.check()).rejects.toMatchObject({
        name: 'MediaStorageError',
        message: sentence.replace('ENDPOINT', s3.endpoint),
      });
    } finally {
      storage.close();
    }
  });

  it.each(wrong)(
    '%s: an upload or a read answers 503 with the same sentence',
    async (_, change, sentence) => {
      const storage = new S3Storage(change(s3.storage));
      try {
        const expected = `Media storage is unavailable: ${sentence.replace('ENDPOINT', s3.endpoint)}`;
        const answer = { name: 'AppError', code: 'UNAVAILABLE', message: expected };
        const bytes = Readable.from([Buffer.from('bytes')]);
        await expect(
          storage.put('org/a.jpg', bytes, { contentType: 'image/jpeg', size: 5 }),
        ).rejects.toMatchObject(answer);
        await expect(storage.get('org/a.jpg')).rejects.toMatchObject(answer);
        await expect(storage.remove(['org/a.jpg'])).rejects.toMatchObject(answer);
      } finally {
        storage.close();
      }
    },
  );

  it('a port nobody listens on: the check says S3 could not be reached', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const storage = new S3Storage({ ...s3.storage, endpoint });
    try {
      await expect(storage.check()).rejects.toMatchObject({
        name: 'MediaStorageError',
        message: `S3 could not be reached at ${endpoint} (ECONNREFUSED): check S3_ENDPOINT and that the storage server is running.`,
      });
    } finally {
      storage.close();
    }
  });

  it('an endpoint that never answers: the check gives up after its timeout instead of hanging', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const storage = new S3Storage({ ...s3.storage, endpoint }, { checkTimeoutMs: 500 });
    try {
      await expect(storage.check()).rejects.toMatchObject({
        name: 'MediaStorageError',
        message: `S3 at ${endpoint} did not answer within 0.5 seconds: check S3_ENDPOINT and the network between this server and it.`,
      });
    } finally {
      storage.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
