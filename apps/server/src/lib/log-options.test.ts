import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logOptions, serializeError } from './log-options.js';

describe('logging errors', () => {
  it('keeps the facts of an error and drops the objects and secrets hanging off it', () => {
    const err = Object.assign(new Error('Connection terminated unexpectedly'), {
      code: '57P01',
      client: { processID: 42, secretKey: 987654321, connectionParameters: { password: 'pw' } },
      accessToken: 'tok',
      cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    });
    const line = serializeError(err) as Record<string, unknown>;
    expect(line).toMatchObject({
      type: 'Error',
      message: 'Connection terminated unexpectedly',
      code: '57P01',
      cause: { message: 'socket hang up', code: 'ECONNRESET' },
    });
    expect(JSON.stringify(line)).not.toMatch(/secretKey|987654321|pw|tok/);
  });

  it('is what a logger built with logOptions writes', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(logOptions('info'), sink);
    const err = Object.assign(new Error('job failed'), { client: { secretKey: 123456 } });
    log.error({ err, req: { headers: { cookie: 'herald_at=abc' } } }, 'job runtime error');
    expect(lines.join('')).toContain('job failed');
    expect(lines.join('')).not.toMatch(/secretKey|123456|herald_at=abc/);
  });
});
