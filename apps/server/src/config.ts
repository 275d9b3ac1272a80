import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const emailList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );

const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    HERALD_DATA_DIR: z.string().default('./.herald'),
    DATABASE_URL: optionalString,
    PUBLIC_URL: z.url().optional(),
    API_PUBLIC_URL: z.url().optional(),
    API_BASE_PATH: z
      .string()
      .default('/api')
      .transform((v) => (v === '/' ? '' : v.replace(/\/+$/, '')))
      .refine((v) => v === '' || v.startsWith('/'), 'API_BASE_PATH must start with "/".'),
    ADMIN_EMAILS: emailList,
    SESSION_SECRET: optionalString,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    OIDC_ISSUER_URL: optionalString,
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_LABEL: optionalString,
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
    WEB_DIST_DIR: optionalString,
    SMTP_URL: optionalString,
    TOKEN_ENCRYPTION_KEY: optionalString,
    X_CLIENT_ID: optionalString,
    X_CLIENT_SECRET: optionalString,
    META_APP_ID: optionalString,
    META_APP_SECRET: optionalString,
    THREADS_APP_ID: optionalString,
    THREADS_APP_SECRET: optionalString,
    TIKTOK_CLIENT_KEY: optionalString,
    TIKTOK_CLIENT_SECRET: optionalString,
    LINKEDIN_CLIENT_ID: optionalString,
    LINKEDIN_CLIENT_SECRET: optionalString,
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_API_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Herald <no-reply@herald.localhost>'),
  })
  .transform((env, ctx) => {
    const publicUrl = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`);
    const isProduction = env.NODE_ENV === 'production';
    let identity: IdentityConfig;
    if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
      identity = {
        kind: 'google',
        label: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: env.GOOGLE_CLIENT_ID,
        clientSecret: env.GOOGLE_CLIENT_SECRET,
      };
    } else if (env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
      identity = {
        kind: 'oidc',
        label: env.OIDC_LABEL ?? new URL(env.OIDC_ISSUER_URL).hostname,
        issuer: env.OIDC_ISSUER_URL,
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET,
      };
    } else if (!isProduction) {
      identity = { kind: 'development', label: 'Herald development sign-in' };
    } else {
      ctx.addIssue({
        code: 'custom',
        message:
          'In production set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: the development sign-in is refused there.',
      });
      return z.NEVER;
    }
    if (isProduction && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        message: 'In production set SESSION_SECRET (at least 32 characters).',
      });
      return z.NEVER;
    }
    if (env.SESSION_SECRET && env.SESSION_SECRET.length < 32) {
      ctx.addIssue({
        code: 'custom',
        message: 'SESSION_SECRET must be at least 32 characters long.',
      });
      return z.NEVER;
    }
    return {
      nodeEnv: env.NODE_ENV,
      isProduction,
      port: env.PORT,
      host: env.HOST,
      dataDir: env.HERALD_DATA_DIR,
      databaseUrl: env.DATABASE_URL,
      publicUrl: publicUrl.origin,
      secureCookies: publicUrl.protocol === 'https:',
      apiBasePath: env.API_BASE_PATH,
      /** Where browsers and identity providers reach the API (callbacks are built from it). */
      apiPublicUrl: (env.API_PUBLIC_URL ?? `${publicUrl.origin}${env.API_BASE_PATH}`).replace(
        /\/+$/,
        '',
      ),
      adminEmails: env.ADMIN_EMAILS,
      sessionSecret: env.SESSION_SECRET,
      logLevel: env.LOG_LEVEL,
      identity,
      bodyLimitBytes: env.BODY_LIMIT_BYTES,
      webDistDir: env.WEB_DIST_DIR,
      smtpUrl: env.SMTP_URL,
      tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY,
      /** Credentials per network; a network without them uses its local sandbox (not in production). */
      networks: {
        x: pair(env.X_CLIENT_ID, env.X_CLIENT_SECRET),
        facebook: pair(env.META_APP_ID, env.META_APP_SECRET),
        instagram: pair(env.META_APP_ID, env.META_APP_SECRET),
        threads: pair(env.THREADS_APP_ID, env.THREADS_APP_SECRET),
        tiktok: pair(env.TIKTOK_CLIENT_KEY, env.TIKTOK_CLIENT_SECRET),
        linkedin: pair(env.LINKEDIN_CLIENT_ID, env.LINKEDIN_CLIENT_SECRET),
      },
      /** Stripe when both keys are set; otherwise self-billing (subscribing activates at once). */
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: env.STRIPE_SECRET_KEY,
              webhookSecret: env.STRIPE_WEBHOOK_SECRET,
              apiUrl: env.STRIPE_API_URL,
            }
          : null,
      mailFrom: env.MAIL_FROM,
    };
  });

const pair = (clientId: string | undefined, clientSecret: string | undefined) =>
  clientId && clientSecret ? { clientId, clientSecret } : null;

export type IdentityConfig =
  | {
      kind: 'google' | 'oidc';
      label: string;
      issuer: string;
      clientId: string;
      clientSecret: string;
    }
  | { kind: 'development'; label: string };

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Parses the environment once. The only place in the server that reads `process.env`. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) =>
      i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message,
    );
    throw new ConfigError(`Invalid configuration. ${lines.join(' ')}`);
  }
  return parsed.data;
}
