import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MEDIA_HEAD_BYTES } from '../kit/media-facts.js';

/** What the upload storage keeps of a multipart POST: its fields, and of the file its size and head. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  file: { size: number; head: Buffer; contentType: string | null } | null;
}

/** Room for the form's fields before the file: a policy, a signature and a few names. */
const FIELDS_ROOM = 64 * 1024;

function fieldsOf(preamble: string, boundary: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of preamble.split(`--${boundary}`)) {
    const match = /name="([^"]+)"\r\n\r\n([\s\S]*?)\r\n$/.exec(part);
    if (match && !/filename=/.test(part)) fields[match[1]!] = match[2]!;
  }
  return fields;
}

/**
 * The storage behind Pinterest's `upload_url` takes an HTML form POST: the parameters Pinterest
 * gave, then the file, last. The body streams past: the fields are read, the file is counted and
 * only its head kept (the emulator never holds a video), and the closing boundary is taken off.
 */
export function registerUploadBodyParser(scope: FastifyInstance) {
  scope.addContentTypeParser(
    'multipart/form-data',
    (request: FastifyRequest, payload: NodeJS.ReadableStream, done) => {
      const type = String(request.headers['content-type'] ?? '');
      const boundary = /boundary=("?)([^";]+)\1/.exec(type)?.[2];
      if (!boundary) return done(null, { fields: {}, file: null } satisfies ReceivedUpload);
      let preamble = Buffer.alloc(0);
      let inFile = false;
      let size = 0;
      let contentType: string | null = null;
      const head: Buffer[] = [];
      let headBytes = 0;
      // The last bytes seen: the closing boundary is in them, and is not the file's.
      let tail = Buffer.alloc(0);
      const closing = Buffer.byteLength(`\r\n--${boundary}--\r\n`);
      let fields: Record<string, string> = {};

      const take = (piece: Buffer) => {
        const joined = Buffer.concat([tail, piece]);
        const keep = Math.min(closing, joined.length);
        const out = joined.subarray(0, joined.length - keep);
        tail = Buffer.from(joined.subarray(joined.length - keep));
        size += out.length;
        if (headBytes < MEDIA_HEAD_BYTES) {
          const part = out.subarray(0, MEDIA_HEAD_BYTES - headBytes);
          head.push(Buffer.from(part));
          headBytes += part.length;
        }
      };

      payload.on('data', (chunk: Buffer) => {
        if (inFile) return take(chunk);
        preamble = Buffer.concat([preamble, chunk]);
        const text = preamble.toString('latin1');
        const fileAt = text.search(/Content-Disposition: form-data; name="file"/i);
        const bodyAt = fileAt >= 0 ? text.indexOf('\r\n\r\n', fileAt) : -1;
        if (bodyAt < 0) {
          if (preamble.length > FIELDS_ROOM) preamble = preamble.subarray(0, FIELDS_ROOM);
          return;
        }
        fields = fieldsOf(text.slice(0, text.lastIndexOf(`--${boundary}`, fileAt)), boundary);
        contentType = /Content-Type: ([^\r\n]+)/i.exec(text.slice(fileAt, bodyAt))?.[1] ?? null;
        inFile = true;
        take(preamble.subarray(bodyAt + 4));
      });
      payload.on('end', () =>
        done(null, {
          fields,
          file: inFile ? { size, head: Buffer.concat(head), contentType } : null,
        } satisfies ReceivedUpload),
      );
      payload.on('error', (err: Error) => done(err));
    },
  );
}
