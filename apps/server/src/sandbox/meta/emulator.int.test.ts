import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database.js';
import { registerSandbox } from '../index.js';
import { WHOLE_SANDBOX, WHOLE_SANDBOX_SIGNER } from '../kit/tenant.js';
import { createSandboxStore } from '../store.js';

it('keeps Graph query strings (tokens, app secret) out of the request log', async () => {
  const { database, drop } = await createTestDatabase();
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  const mountPath = '/api/sandbox/facebook';
  await app.register(
    async (scope) =>
      registerSandbox(scope, 'facebook', {
        publicBase: `http://localhost${mountPath}`,
        mountPath,
        clientId: 'herald-sandbox',
        clientSecret: 'the-secret',
        unaudited: false,
        store: createSandboxStore(database.db, 'facebook'),
        runsLocally: true,
        heraldApi: 'http://localhost/api',
        deliver: () => Promise.reject(new Error('Nothing is delivered in this test.')),
        fetchMedia: () => Promise.reject(new Error('No media is read in this test.')),
        fetchClientDocument: () => Promise.reject(new Error('No client is read in this test.')),
        tenantOf: async () => WHOLE_SANDBOX,
        signerOf: async () => WHOLE_SANDBOX_SIGNER,
      }),
    { prefix: mountPath },
  );
  try {
    const exchange = await app.inject({
      url: `${mountPath}/v24.0/oauth/access_token?grant_type=fb_exchange_token&client_id=herald-sandbox&client_secret=SECRETVALUE&fb_exchange_token=TOKENVALUE`,
    });
    // A wrong app secret: Meta answers code 1 "Error validating client secret."
    expect(exchange.json().error).toMatchObject({ code: 1, type: 'OAuthException' });
    await app.inject({ url: `${mountPath}/_emu/calls` });
  } finally {
    await app.close();
    await drop();
  }
  const log = lines.join('');
  expect(log).toContain('/_emu/calls');
  expect(log).not.toContain('TOKENVALUE');
  expect(log).not.toContain('SECRETVALUE');
});
