// A bare Fastify "hello" on the port given as the first argument: the floor Herald's healthz is
// measured against (same Node, same Fastify, no plugins).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
console.log('ready');
