import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { TEST_PUBLIC_URL } from './app.js';
import type { Actor } from './factories.js';

/** Starts the app on a free loopback port, for tests that need a real socket; returns the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

/** The id of a supported network by name ("X", "Threads"…). */
export async function platformIdOf(app: FastifyInstance, name: string): Promise<string> {
  const supported = await app.inject({ method: 'GET', url: '/api/platforms/supported' });
  return supported.json().data.platforms.find((p: { name: string }) => p.name === name).id;
}

export interface SocketAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A multipart body written by hand over a real socket, as a browser streams it: the text fields,
 * then one file part whose bytes come from `file` (never held whole). With `holdOpen`, the body
 * is never finished: the answer must come while the rest of the file is still "on its way".
 */
export function streamPost(
  port: number,
  actor: Actor,
  path: string,
  fields: Record<string, string>,
  file: { name: string; type: string; bytes: Readable | Buffer },
  options: { holdOpen?: boolean; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<SocketAnswer | 'no answer'> {
  const boundary = `----herald${Date.now()}`;
  const head =
    Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          cookie: actor.jar.header(),
          origin: TEST_PUBLIC_URL,
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          if (options.holdOpen) req.destroy();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
          });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, options.timeoutMs ?? 180_000);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void (async () => {
      req.write(head);
      if (Buffer.isBuffer(file.bytes)) req.write(file.bytes);
      else {
        // Respecting backpressure: the test process is the server's too, and measures memory.
        for await (const chunk of file.bytes) {
          if (!req.write(chunk as Buffer)) await once(req, 'drain');
        }
      }
      if (!options.holdOpen) req.end(`\r\n--${boundary}--\r\n`);
    })().catch(reject);
  });
}
