import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * A tiny S3 for tests: the REST calls the media S3 driver makes, path-style, signatures ignored,
 * objects and multipart parts kept as files in a temp folder. Not a general S3.
 */
export interface S3Emulator {
  /** `http://127.0.0.1:<port>`, for S3_ENDPOINT with S3_FORCE_PATH_STYLE=true. */
  endpoint: string;
  bucket: string;
  /** Keys stored now, sorted. */
  keys(): string[];
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads(): number;
  /** Operation names in the order received (PutObject, UploadPart, …). */
  operations: string[];
  /**
   * Makes a coming request of this operation fail with 403 AccessDenied (the SDK does not retry
   * it): the next one, or the one after `skip` more have passed.
   */
  failNext(operation: string, skip?: number): void;
  close(): Promise<void>;
}

interface StoredObject {
  file: string;
  size: number;
  contentType: string;
  etag: string;
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xmlUnescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const chunked =
    (req.headers['content-encoding'] ?? '').includes('aws-chunked') ||
    String(req.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-');
  return chunked ? decodeAwsChunked(raw) : raw;
}

/** `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n … 0\r\n<trailers>\r\n\r\n` */
function decodeAwsChunked(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!size) break;
    out.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

function sendXml(res: ServerResponse, status: number, body: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(xml),
  });
  res.end(xml);
}

const sendError = (res: ServerResponse, status: number, code: string, message: string) =>
  sendXml(
    res,
    status,
    `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`,
  );

function operationOf(method: string, key: string, query: URLSearchParams): string {
  if (!key) return method === 'POST' && query.has('delete') ? 'DeleteObjects' : `Bucket${method}`;
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'PUT' && query.has('uploadId')) return 'UploadPart';
  if (method === 'POST' && query.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'DELETE' && query.has('uploadId')) return 'AbortMultipartUpload';
  return (
    { PUT: 'PutObject', GET: 'GetObject', HEAD: 'HeadObject', DELETE: 'DeleteObject' }[method] ??
    `Object${method}`
  );
}

export async function startS3Emulator(bucket = 'herald-test'): Promise<S3Emulator> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-s3-'));
  await mkdir(join(dir, 'objects'));
  await mkdir(join(dir, 'uploads'));
  const objects = new Map<string, StoredObject>();
  const uploads = new Map<string, { key: string; contentType: string }>();
  const operations: string[] = [];
  /** Operation → how many more requests of it pass before one fails. */
  const failures = new Map<string, number>();

  async function storeObject(key: string, file: string, contentType: string, etag: string) {
    const { size } = await stat(file);
    const previous = objects.get(key);
    objects.set(key, { file, size, contentType, etag });
    if (previous) await rm(previous.file, { force: true });
  }

  async function removeObject(key: string) {
    const found = objects.get(key);
    objects.delete(key);
    if (found) await rm(found.file, { force: true });
  }

  function sendObject(req: IncomingMessage, res: ServerResponse, object: StoredObject) {
    const headers: Record<string, string | number> = {
      'content-type': object.contentType,
      etag: object.etag,
      'accept-ranges': 'bytes',
      'last-modified': new Date().toUTCString(),
    };
    const match = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = object.size - 1;
    let status = 200;
    if (match) {
      if (match[1] === '') start = Math.max(0, object.size - Number(match[2]));
      else {
        start = Number(match[1]);
        if (match[2] !== '') end = Math.min(end, Number(match[2]));
      }
      if (start > end || start >= object.size)
        return sendError(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${object.size}`;
    }
    headers['content-length'] = object.size === 0 ? 0 : end - start + 1;
    res.writeHead(status, headers);
    if (req.method === 'HEAD' || object.size === 0) return res.end();
    createReadStream(object.file, { start, end }).pipe(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const [, bucketName = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const query = url.searchParams;
    const method = req.method ?? 'GET';
    const operation = operationOf(method, key, query);
    operations.push(operation);
    const pass = failures.get(operation);
    if (pass !== undefined && pass > 0) failures.set(operation, pass - 1);
    if (pass === 0) {
      failures.delete(operation);
      await readBody(req);
      return sendError(res, 403, 'AccessDenied', `Injected failure of ${operation}.`);
    }
    if (bucketName !== bucket)
      return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');

    switch (operation) {
      case 'PutObject': {
        const body = await readBody(req);
        const file = join(dir, 'objects', randomUUID());
        await writeFile(file, body);
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        await storeObject(key, file, req.headers['content-type'] ?? 'binary/octet-stream', etag);
        res.writeHead(200, { etag });
        return res.end();
      }
      case 'CreateMultipartUpload': {
        await readBody(req);
        const uploadId = randomUUID();
        await mkdir(join(dir, 'uploads', uploadId));
        uploads.set(uploadId, {
          key,
          contentType: req.headers['content-type'] ?? 'binary/octet-stream',
        });
        return sendXml(
          res,
          200,
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      case 'UploadPart': {
        const uploadId = query.get('uploadId') ?? '';
        const body = await readBody(req);
        if (!uploads.has(uploadId))
          return sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
        const partNumber = Number(query.get('partNumber'));
        await writeFile(join(dir, 'uploads', uploadId, String(partNumber)), body);
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        res.writeHead(200, { etag });
        return res.end();
      }
      case 'CompleteMultipartUpload': {
        const uploadId = query.get('uploadId') ?? '';
        const body = (await readBody(req)).toString('utf8');
        const upload = uploads.get(uploadId);
        if (!upload)
          return sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
        const parts = [...body.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => m[1]);
        const file = join(dir, 'objects', randomUUID());
        const out = createWriteStream(file);
        for (const part of parts) {
          await pipeline(createReadStream(join(dir, 'uploads', uploadId, String(part))), out, {
            end: false,
          });
        }
        await new Promise<void>((resolve, reject) =>
          out.end((err?: Error | null) => (err ? reject(err) : resolve())),
        );
        const etag = `"${randomUUID().replace(/-/g, '')}-${parts.length}"`;
        await storeObject(upload.key, file, upload.contentType, etag);
        uploads.delete(uploadId);
        await rm(join(dir, 'uploads', uploadId), { recursive: true, force: true });
        return sendXml(
          res,
          200,
          `<CompleteMultipartUploadResult><Location>/${bucket}/${xmlEscape(key)}</Location><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`,
        );
      }
      case 'AbortMultipartUpload': {
        const uploadId = query.get('uploadId') ?? '';
        uploads.delete(uploadId);
        await rm(join(dir, 'uploads', uploadId), { recursive: true, force: true });
        res.writeHead(204);
        return res.end();
      }
      case 'GetObject':
      case 'HeadObject': {
        const object = objects.get(key);
        if (!object) {
          if (method === 'HEAD') {
            res.writeHead(404);
            return res.end();
          }
          return sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        }
        return sendObject(req, res, object);
      }
      case 'DeleteObject': {
        await removeObject(key);
        res.writeHead(204);
        return res.end();
      }
      case 'DeleteObjects': {
        const body = (await readBody(req)).toString('utf8');
        const keys = [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => xmlUnescape(m[1] ?? ''));
        for (const k of keys) await removeObject(k);
        const quiet = /<Quiet>true<\/Quiet>/.test(body);
        const deleted = quiet
          ? ''
          : keys.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join('');
        return sendXml(
          res,
          200,
          `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${deleted}</DeleteResult>`,
        );
      }
      default:
        await readBody(req);
        return sendError(res, 501, 'NotImplemented', `${operation} is not emulated.`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'InternalError', String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    keys: () => [...objects.keys()].sort(),
    openUploads: () => uploads.size,
    operations,
    failNext: (operation, skip = 0) => failures.set(operation, skip),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
