import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { HandshakeQuery } from '../../platforms/inbox-types.js';
import type { InboxSync } from './inbox-sync.js';

/**
 * `GET|POST /webhooks/{provider}` (docs/inbox.md#webhooks): the networks' deliveries, and the
 * notices a network pushes for its inbox to read an account now (Google Business Profile). The
 * signature covers the exact bytes, so the body stays raw in this scope and is checked before
 * anything reads it; a forged or unsigned delivery is refused and leaves nothing behind. A signed
 * body must then be JSON of the receiver's own kind: the signature only says which app secret
 * signed it, and networks (and a handshake's answer) may share one. A valid one is stored and
 * answered at once; a job parses and stores its events.
 */
export async function webhooksRoutes(
  app: FastifyInstance,
  { sync, metaVerifyToken }: { sync: InboxSync; metaVerifyToken: string | null },
) {
  const receivePush = (
    provider: string,
    headers: Record<string, string | string[] | undefined>,
    body: unknown,
  ) => receivePushWith(sync, provider, headers, body);

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

    scope.get<{ Params: { provider: string }; Querystring: Record<string, unknown> }>(
      '/webhooks/:provider',
      { config: { access: 'public' }, schema: { tags: ['webhooks'], hide: true } },
      async (request, reply) => {
        const { receiver, appSecret } = receiverOf(request.params.provider);
        const answer = receiver.handshake(singleValued(request.query), {
          appSecret,
          verifyToken: metaVerifyToken ?? '',
        });
        if (answer && 'malformed' in answer)
          throw new AppError('VALIDATION_FAILED', answer.malformed);
        if (!answer || (!metaVerifyToken && receiver.usesVerifyToken))
          throw new AppError('FORBIDDEN', 'This webhook verification request was refused.');
        return reply.type(answer.contentType).send(answer.body);
      },
    );

    scope.post<{ Params: { provider: string } }>(
      '/webhooks/:provider',
      { config: { access: 'public' }, schema: { tags: ['webhooks'], hide: true } },
      async (request, reply) => {
        if (!sync.receiver(request.params.provider)) {
          const answered = await receivePush(
            request.params.provider,
            request.headers,
            request.body,
          );
          return reply.code(answered.status).send(answered.body);
        }
        const { receiver, appSecret } = receiverOf(request.params.provider);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!receiver.verify(raw, request.headers, appSecret))
          throw new AppError('FORBIDDEN', 'The webhook signature does not match this body.');
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new AppError('BAD_REQUEST', 'The webhook body is not JSON.');
        }
        const foreign = receiver.deliveryProblem(body);
        if (foreign) throw new AppError('VALIDATION_FAILED', foreign);
        await sync.storeWebhook(receiver.provider, raw, request.headers);
        return reply.code(200).send({ status: 'success', data: { message: 'Received.' } });
      },
    );
  });
}

/**
 * A network's pushed notice (Google Business Profile's Pub/Sub push): its token is checked by the
 * network's inbox before anything in the body is believed. A good one is answered at once (the
 * accounts it names are read by a job), so Pub/Sub does not send it again; a notice of no
 * concern, or for an account no organization connected, is answered the same. A missing token is
 * 401, a wrong one 403, a body that is no push 400.
 */
async function receivePushWith(
  sync: InboxSync,
  provider: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: unknown,
): Promise<{ status: number; body: unknown }> {
  let body: unknown;
  try {
    body = Buffer.isBuffer(rawBody) ? JSON.parse(rawBody.toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  const authorization =
    typeof headers.authorization === 'string' ? headers.authorization : undefined;
  const result = await sync.receivePush(provider, { authorization, body });
  if (!result) throw new AppError('NOT_FOUND', 'Herald receives no webhooks at this address.');
  if (result.outcome === 'refused')
    throw authorization
      ? new AppError('FORBIDDEN', 'This push was refused: its token is not the one Herald expects.')
      : new AppError('UNAUTHENTICATED', 'Send the push with its Authorization: Bearer token.');
  if (result.outcome === 'malformed') throw new AppError('VALIDATION_FAILED', result.reason);
  return { status: 200, body: { status: 'success', data: { message: 'Received.' } } };
}

/** A parameter name as a sentence may quote it: short, whatever was sent. */
const quoted = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * The handshake's parameters, each given once. No network repeats one, and a repeated one would
 * reach the receiver as an array (to be signed or echoed): it is refused with a sentence.
 */
function singleValued(query: Record<string, unknown>): HandshakeQuery {
  const entries = Object.entries(query ?? {});
  for (const [name, value] of entries) {
    if (typeof value !== 'string')
      throw new AppError(
        'VALIDATION_FAILED',
        `Send each webhook verification parameter once; ${quoted(name)} came more than once.`,
      );
  }
  // Own properties only: a parameter named __proto__ stays a parameter.
  return Object.fromEntries(entries) as HandshakeQuery;
}
