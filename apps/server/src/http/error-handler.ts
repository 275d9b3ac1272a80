import type { ErrorEnvelope } from '@herald/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConnectionError } from '../db/client.js';
import { AppError } from '../lib/app-error.js';

function send(reply: FastifyReply, status: number, body: ErrorEnvelope) {
  return reply.status(status).send(body);
}

/** Maps Fastify's own error codes (body parsing, limits) to sentences a caller can act on. */
function fromFastifyError(err: FastifyError): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(
        'BAD_REQUEST',
        'The request body is not valid JSON. Check the syntax and send it again.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        'The request body is too large. Send a smaller one.',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'This content type is not accepted here. Send JSON.',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('BAD_REQUEST', 'The Content-Length header does not match the body.');
    default:
      break;
  }
  if (err.statusCode === 429)
    return new AppError('RATE_LIMITED', 'Too many requests. Wait a moment and try again.');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(err.statusCode === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', err.message);
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance) {
  // An empty body with a JSON content type (a DELETE from some clients) means "no body".
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        new AppError(
          'BAD_REQUEST',
          'The request body is not valid JSON. Check the syntax and send it again.',
        ),
        undefined,
      );
    }
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'is invalid',
      }));
      const where = error.validationContext ?? 'request';
      const first = issues[0];
      const sentence = first
        ? `The ${where} is invalid: ${first.path ? `${first.path}: ` : ''}${first.message}`
        : `The ${where} is invalid.`;
      return send(reply, 400, {
        status: 'error',
        code: 'VALIDATION_FAILED',
        message: sentence,
        details: { issues },
      });
    }
    const appError = error instanceof AppError ? error : fromFastifyError(error);
    const browserRedirect = request.routeOptions.config?.browserRedirect;
    if (
      appError &&
      browserRedirect &&
      appError.statusCode < 500 &&
      appError.code !== 'UNAUTHENTICATED'
    ) {
      return reply.redirect(browserRedirect(appError.message));
    }
    if (appError) {
      if (appError.statusCode >= 500) request.log.error({ err: error }, appError.message);
      return send(reply, appError.statusCode, {
        status: 'error',
        code: appError.code,
        message: appError.message,
        ...(appError.details !== undefined ? { details: appError.details } : {}),
      });
    }
    if (isConnectionError(error)) {
      request.log.error({ err: error }, 'database unreachable');
      return send(reply, 503, {
        status: 'error',
        code: 'UNAVAILABLE',
        message: 'The service is temporarily unavailable. Please try again in a moment.',
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, {
      status: 'error',
      code: 'INTERNAL',
      message:
        'Something went wrong on our side. Please try again; if it keeps happening, contact support.',
    });
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, {
      status: 'error',
      code: 'NOT_FOUND',
      message: `There is no ${request.method} ${request.url.split('?')[0]} in this API.`,
    }),
  );
}
