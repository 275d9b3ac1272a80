import Fastify, { type onRequestHookHandler } from 'fastify';
import { describe, expect, it } from 'vitest';
import { changesState, hookRoutes, recordRoutes } from './route-hooks.js';

/** An onRequest hook that counts the requests it sees. */
function counting() {
  const seen: string[] = [];
  const hook: onRequestHookHandler = (request, _reply, done) => {
    seen.push(`${request.method} ${request.url}`);
    done();
  };
  return { seen, hook };
}

describe('hooks of the routes that change something', () => {
  it('run on those routes only, not on reads nor on requests no route matched', async () => {
    const app = Fastify();
    recordRoutes(app);
    const { seen, hook } = counting();
    hookRoutes(app, 'onRequest', changesState, hook);
    app.get('/notes', async () => ({ read: true }));
    app.post('/notes', async () => ({ written: true }));
    app.route({ method: ['GET', 'DELETE'], url: '/notes/:id', handler: async () => ({}) });
    await app.ready();
    for (const [method, url] of [
      ['GET', '/notes'],
      ['POST', '/notes'],
      ['GET', '/notes/1'],
      ['DELETE', '/notes/1'],
      ['POST', '/nowhere'],
    ] as const)
      await app.inject({ method, url });
    // A route answering both a read and a write has the hook; it decides by the method itself.
    expect(seen).toEqual(['POST /notes', 'GET /notes/1', 'DELETE /notes/1']);
    await app.close();
  });

  it('refuse to get ready when a route they concern was registered before them', async () => {
    const app = Fastify();
    recordRoutes(app);
    app.post('/early', async () => ({}));
    app.get('/early-read', async () => ({}));
    hookRoutes(app, 'onRequest', changesState, counting().hook);
    app.post('/late', async () => ({}));
    await expect(app.ready()).rejects.toThrow(
      'Registered before its onRequest hook was added: POST /early.',
    );
  });
});
