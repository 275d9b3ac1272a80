import { connect } from 'node:net';
import type { Answer } from './check.js';

/** Decodes a chunked transfer-encoded body. */
function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Sends `head` (request line and headers, exactly as given: bad percent-encoding, huge headers)
 * to 127.0.0.1:`port` over a fresh socket with `Connection: close`; resolves with the answer,
 * rejects after `timeoutMs`.
 */
export function rawRequest(port: number, head: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`, 'latin1'));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // The server may reset after answering; `close` settles.
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(all.toString())}`));
      const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body: Buffer = all.subarray(end + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: body.toString('utf8'),
      });
    });
  });
}
