import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaStorageConfig } from '../config.js';

/**
 * A real S3-compatible server for tests: s3rver (the `@20minutes/s3rver` dev dependency, plain
 * JavaScript, nothing downloaded at run time) on 127.0.0.1 and a free port, objects in a temp
 * folder. It checks every request's SigV4 signature against its one key pair, so wrong
 * credentials are refused as S3 refuses them.
 *
 * A thin layer in front of it records operations, injects failures, and fills s3rver's two gaps
 * with what the AWS SDK v3 sends (see `patchSignatureCheck` and `abortUpload`).
 */
export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for S3_ENDPOINT with S3_FORCE_PATH_STYLE=true. */
  endpoint: string;
  bucket: string;
  /** The key pair the server accepts. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The media storage configuration pointing at this server's bucket. */
  storage: Extract<MediaStorageConfig, { driver: 's3' }>;
  /** The environment variables that configure Herald for this server's bucket. */
  env: Record<string, string>;
  /** Keys stored in the bucket now, sorted. */
  keys(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads(): Promise<number>;
  /** Operation names in the order received (PutObject, UploadPart, …). */
  operations: string[];
  /** The same requests with the key each was for and the bytes its body declared. */
  requests: Array<{ operation: string; key: string; bytes: number }>;
  /**
   * Makes a coming request of this operation fail with 403 AccessDenied (the SDK does not retry
   * it): the next one, or the one after `skip` more have passed.
   */
  failNext(operation: string, skip?: number): void;
  close(): Promise<void>;
}

/** The part of s3rver's API used here (the package ships no types). */
interface S3rver {
  configureBuckets(): Promise<void>;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  store: {
    listObjects(bucket: string, options: object): Promise<{ objects: Array<{ key: string }> }>;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  };
}
type S3rverClass = new (options: object) => S3rver;
interface CanonicalRequest {
  uri: string;
  headers: IncomingMessage['headers'];
}
interface SignatureV4 {
  getStringToSign(request: CanonicalRequest, parsed: unknown): string;
}

const require = createRequire(import.meta.url);
const S3rverServer = require('@20minutes/s3rver') as S3rverClass;

/** s3rver's built-in key pair: the only one it accepts. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The path each request was sent to, by its headers object (the one s3rver signs from). */
const sentPaths = new WeakMap<IncomingMessage['headers'], string>();

/**
 * The SDK sends bucket-level calls (DeleteObjects, ListObjectsV2, HeadBucket) to `/<bucket>/`
 * and signs that path; s3rver rebuilds the canonical URI as `/<bucket>`, without the slash, and
 * refuses the signature. Real S3 signs the path as sent, so the canonical URI gets the slash back
 * when it is what the request carried — nothing else about the check changes.
 */
function patchSignatureCheck() {
  const v4 = require('@20minutes/s3rver/lib/signature/v4.js') as SignatureV4 & {
    patched?: boolean;
  };
  if (v4.patched) return;
  const getStringToSign = v4.getStringToSign.bind(v4);
  v4.getStringToSign = (request, parsed) => {
    const sent = sentPaths.get(request.headers);
    return getStringToSign(
      sent === `${request.uri}/` ? { ...request, uri: sent } : request,
      parsed,
    );
  };
  v4.patched = true;
}

function operationOf(method: string, path: string, query: URLSearchParams): string {
  const isBucket = /^\/[^/]+\/?$/.test(path);
  if (isBucket)
    return method === 'POST' && query.has('delete') ? 'DeleteObjects' : `Bucket${method}`;
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'PUT' && query.has('uploadId')) return 'UploadPart';
  if (method === 'POST' && query.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'DELETE' && query.has('uploadId')) return 'AbortMultipartUpload';
  return (
    { PUT: 'PutObject', GET: 'GetObject', HEAD: 'HeadObject', DELETE: 'DeleteObject' }[method] ??
    `Object${method}`
  );
}

async function drain(req: IncomingMessage) {
  for await (const chunk of req) void chunk;
}

function sendError(res: ServerResponse, status: number, code: string, message: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(xml),
  });
  res.end(xml);
}

/** Starts a server with `bucket` created; `close()` stops it and removes its folder. */
export async function startS3Server(bucket = 'herald-test'): Promise<S3TestServer> {
  patchSignatureCheck();
  const dir = await mkdtemp(join(tmpdir(), 'herald-s3-'));
  const s3rver = new S3rverServer({
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const uploadsDir = s3rver.store.getResourcePath(bucket, undefined, 'uploads');
  const operations: string[] = [];
  const requests: S3TestServer['requests'] = [];
  /** Operation → how many more requests of it pass before one fails. */
  const failures = new Map<string, number>();

  /** s3rver answers AbortMultipartUpload with 405; real S3 drops the upload and its parts. */
  async function abortUpload(req: IncomingMessage, res: ServerResponse, uploadId: string) {
    await drain(req);
    if (!/^[A-Za-z0-9_-]+$/.test(uploadId))
      return sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
    await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    res.writeHead(204);
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3.test');
    const operation = operationOf(req.method ?? 'GET', url.pathname, url.searchParams);
    operations.push(operation);
    requests.push({
      operation,
      key: decodeURIComponent(url.pathname.split('/').slice(2).join('/')),
      bytes: Number(req.headers['content-length'] ?? 0),
    });
    const pass = failures.get(operation);
    if (pass !== undefined && pass > 0) failures.set(operation, pass - 1);
    const answer = async () => {
      if (pass === 0) {
        failures.delete(operation);
        await drain(req);
        return sendError(res, 403, 'AccessDenied', `Injected failure of ${operation}.`);
      }
      if (operation === 'AbortMultipartUpload')
        return abortUpload(req, res, url.searchParams.get('uploadId') ?? '');
      sentPaths.set(req.headers, url.pathname);
      handle(req, res);
    };
    answer().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    bucket,
    credentials: CREDENTIALS,
    storage: {
      driver: 's3',
      bucket,
      region: 'us-east-1',
      endpoint,
      credentials: CREDENTIALS,
      forcePathStyle: true,
    },
    env: {
      MEDIA_STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async keys() {
      const { objects } = await s3rver.store.listObjects(bucket, {});
      return objects.map((o) => o.key).sort();
    },
    async openUploads() {
      return (await readdir(uploadsDir).catch(() => [])).length;
    },
    operations,
    requests,
    failNext: (operation, skip = 0) => failures.set(operation, skip),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
