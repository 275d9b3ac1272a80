/** Where a link's secret rides in a URL: a client approval link's path, a `token` parameter. */
const URL_SECRETS = /(\/approve\/|\/guest\/approvals\/)[^/?#]+|([?&]token=)[^&#]*/g;

/**
 * A request's URL as the log writes it: the secret of a link in it (a client approval link's
 * token, an invitation's) is replaced by `…`, so a log reader cannot open the link.
 */
export const loggedUrl = (url: string) =>
  url.replace(URL_SECRETS, (_, path: string | undefined, query: string | undefined) =>
    path ? `${path}…` : `${query}…`,
  );

/** Properties never written to a log, whatever object carries them. */
const SECRET_NAME = /secret|token|password|passwd|cookie|authorization|key$/i;

/**
 * An error as a log line may show it: its type, message, stack and plain facts (code, status,
 * detail…), its cause likewise — never the objects hanging off it. A pg error once carried its
 * whole `Client` (cancel key and connection settings included) into the job-error line.
 */
interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function serializeError(value: unknown, depth = 0): LoggedError {
  if (!(value instanceof Error)) return { type: typeof value, message: String(value), stack: '' };
  const out: LoggedError = {
    type: value.constructor?.name ?? 'Error',
    message: value.message,
    stack: value.stack ?? '',
  };
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_NAME.test(key)) continue;
    if (['string', 'number', 'boolean'].includes(typeof item)) out[key] = item;
  }
  if (value.cause !== undefined && depth < 3) out.cause = serializeError(value.cause, depth + 1);
  return out;
}

/**
 * The pino options every Herald logger uses: the level, redaction and safe error serializers;
 * with `pretty`, human-readable lines through pino-pretty (development), else JSON.
 */
export function logOptions(level: string, format: 'json' | 'pretty' = 'json') {
  return {
    level,
    ...(format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: {
              translateTime: 'HH:MM:ss',
              ignore: 'pid,hostname,method,url,status,ms',
              singleLine: true,
            },
          },
        }
      : {}),
    redact: [
      'req.headers.cookie',
      'req.headers.authorization',
      'res.headers["set-cookie"]',
      '*.password',
      '*.accessToken',
      '*.refreshToken',
      '*.clientSecret',
    ],
    serializers: { err: serializeError, error: serializeError },
  };
}
