import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { InboxSync } from './inbox-sync.js';

/**
 * `GET|POST /webhooks/{provider}` (docs/inbox.md#webhooks): the networks' deliveries. The
 * signature covers the exact bytes, so the body stays raw in this scope and is checked before
 * anything reads it; a forged or unsigned delivery is refused and leaves nothing behind. A valid
 * one is stored and answered at once; a job parses and stores its events.
 */
export async function webhooksRoutes(
  app: FastifyInstance,
  { sync, metaVerifyToken }: { sync: InboxSync; metaVerifyToken: string | null },
) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    const receiverOf = (provider: string) => {
      const receiver = sync.receiver(provider);
      const appSecret = receiver ? sync.appSecret(receiver) : null;
      if (!receiver || !appSecret)
        throw new AppError('NOT_FOUND', 'Herald receives no webhooks at this address.');
      return { receiver, appSecret };
    };

    scope.get<{ Params: { provider: string }; Querystring: Record<string, string | undefined> }>(
      '/webhooks/:provider',
      { config: { access: 'public' }, schema: { tags: ['webhooks'], hide: true } },
      async (request, reply) => {
        const { receiver, appSecret } = receiverOf(request.params.provider);
        const answer = receiver.handshake(request.query, {
          appSecret,
          verifyToken: metaVerifyToken ?? '',
        });
        if (!answer || (!metaVerifyToken && receiver.provider !== 'x'))
          throw new AppError('FORBIDDEN', 'This webhook verification request was refused.');
        return reply.type(answer.contentType).send(answer.body);
      },
    );

    scope.post<{ Params: { provider: string } }>(
      '/webhooks/:provider',
      { config: { access: 'public' }, schema: { tags: ['webhooks'], hide: true } },
      async (request, reply) => {
        const { receiver, appSecret } = receiverOf(request.params.provider);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!receiver.verify(raw, request.headers, appSecret))
          throw new AppError('FORBIDDEN', 'The webhook signature does not match this body.');
        await sync.storeWebhook(receiver.provider, raw, request.headers);
        return reply.code(200).send({ status: 'success', data: { message: 'Received.' } });
      },
    );
  });
}
