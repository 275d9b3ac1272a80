import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { containsNul, NUL_MESSAGE, type ErrorEnvelope } from '@herald/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConnectionError } from '../db/client.js';
import { AppError, isAnswerable } from '../lib/app-error.js';
import { boundSentence } from './error-sentence.js';

/** The validation issues an answer describes; the rest are counted. */
export const VALIDATION_ISSUES_MAX = 20;

/** Every error answer of the handlers below: its sentence bounded, whatever it quotes. */
function send(reply: FastifyReply, status: number, body: ErrorEnvelope) {
  return reply.status(status).send({ ...body, message: boundSentence(body.message) });
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

/** PostgreSQL's data exceptions (class 22): a value the column cannot hold, from a request. */
function isDataException(err: unknown, depth = 0): boolean {
  const e = err as { code?: unknown; cause?: unknown } | undefined;
  if (!e || depth > 5) return false;
  if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  return e.cause !== undefined && e.cause !== err ? isDataException(e.cause, depth + 1) : false;
}

/** How deep objects and arrays may nest in a JSON body. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests objects or arrays deeper than `max`, read in one pass without parsing
 * (brackets inside strings do not count). Malformed text is left to JSON.parse.
 */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character (a quote, say).
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function registerErrorHandling(app: FastifyInstance) {
  // NUL cannot be stored in any text column; refuse it wherever a request carries text.
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      return done(new AppError('VALIDATION_FAILED', NUL_MESSAGE));
    }
    done();
  });

  // An empty body with a JSON content type (a DELETE from some clients) means "no body".
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    // Everything that walks a body (NUL check, call logs, validators) recurses: refuse deep
    // nesting before parsing, for every route of the app (sandboxes included).
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH))
      return done(
        new AppError(
          'BAD_REQUEST',
          `The request body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep. Send a flatter body.`,
        ),
        undefined,
      );
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
      // A path names the request's own keys (a record's), and a message may quote a value.
      // A list or a record reports one issue per bad entry: only the first few are described,
      // so the answer does not grow with the request.
      const issues = error.validation.slice(0, VALIDATION_ISSUES_MAX).map((v) => ({
        path: boundSentence(v.instancePath.replace(/^\//, '').replace(/\//g, '.')),
        message: boundSentence(v.message ?? 'is invalid'),
      }));
      const omitted = error.validation.length - issues.length;
      const where = error.validationContext ?? 'request';
      const first = issues[0];
      const sentence = first
        ? `The ${where} is invalid: ${first.path ? `${first.path}: ` : ''}${first.message}`
        : `The ${where} is invalid.`;
      return send(reply, 400, {
        status: 'error',
        code: 'VALIDATION_FAILED',
        message: sentence,
        details: omitted > 0 ? { issues, issuesNotShown: omitted } : { issues },
      });
    }
    const appError =
      error instanceof AppError
        ? error
        : // Whichever route met it (unreadable tokens: reconnect the account), not a 500.
          isAnswerable(error)
          ? error.toAppError()
          : fromFastifyError(error);
    const browserRedirect = request.routeOptions.config?.browserRedirect;
    // A browser sent here is sent back with the sentence: the person's mistakes, and a network
    // that could not be reached (try again later), alike. Herald's own failures stay 500s.
    if (
      appError &&
      browserRedirect &&
      (appError.statusCode < 500 || appError.code === 'UNAVAILABLE') &&
      appError.code !== 'UNAUTHENTICATED'
    ) {
      return reply.redirect(browserRedirect(boundSentence(appError.message)));
    }
    if (appError) {
      if (appError.statusCode >= 500) request.log.error({ err: error }, appError.message);
      if (appError.statusCode === 503) reply.header('retry-after', '5');
      return send(reply, appError.statusCode, {
        status: 'error',
        code: appError.code,
        message: appError.message,
        ...(appError.details !== undefined ? { details: appError.details } : {}),
      });
    }
    if (isDataException(error)) {
      request.log.warn({ err: error }, 'data exception from a request');
      return send(reply, 400, {
        status: 'error',
        code: 'VALIDATION_FAILED',
        message:
          'A value in the request is malformed or out of range for its field. Check it and send again.',
      });
    }
    if (isConnectionError(error)) {
      request.log.error({ err: error }, 'database unreachable');
      reply.header('retry-after', '5');
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

/** The envelope as raw bytes, for answers written before Fastify has a request (socket errors). */
function rawEnvelope(status: number, message: string): string {
  const body = JSON.stringify({ status: 'error', code: 'BAD_REQUEST', message });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Fastify's `frameworkErrors`: errors its router meets before any route runs (a malformed
 * percent-encoding, a path parameter over `maxParamLength`), answered with the envelope and a
 * short sentence that does not echo the address.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return send(reply, 400, {
        status: 'error',
        code: 'BAD_REQUEST',
        message: 'The address is not valid: it contains a malformed percent-encoding.',
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return send(reply, 414, {
        status: 'error',
        code: 'BAD_REQUEST',
        message: 'The address is too long: a part of its path exceeds the length limit.',
      });
    default:
      reply.log.error({ err: error }, 'framework error');
      return send(reply, 500, {
        status: 'error',
        code: 'INTERNAL',
        message:
          'Something went wrong on our side. Please try again; if it keeps happening, contact support.',
      });
  }
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (headers over the size
 * limit, malformed HTTP, a client too slow), answered on the socket with the envelope.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  err: NodeJS.ErrnoException,
  socket: Duplex,
) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let answer: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    answer = rawEnvelope(431, 'The request headers are too large. Send fewer or smaller ones.');
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    answer = rawEnvelope(408, 'The request took too long to arrive. Send it again.');
  } else {
    answer = rawEnvelope(400, 'The request is not valid HTTP.');
  }
  this.log.debug({ err }, 'client error');
  if (socket.writable) socket.write(answer);
  socket.destroy(err);
}
