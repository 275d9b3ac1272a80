import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  buildApp,
  type BuildAppOptions,
  type BuiltApp,
  createFastify,
  type FastifyOptions,
} from '../app.js';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import type { JobRole } from '../jobs/runtime.js';
import { createRuntime, type Runtime, type RuntimeOptions, sandboxFetch } from '../runtime.js';
import { createTestDatabase } from './database.js';

export const TEST_PUBLIC_URL = 'http://localhost:3000';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent', ...env });
}

export interface TestApp {
  app: FastifyInstance;
  networks: BuiltApp['networks'];
  cipher: BuiltApp['cipher'];
  orgRoutes: Set<string>;
  publishQueue: BuiltApp['publishQueue'];
  publisher: BuiltApp['publisher'];
  runtime: Runtime;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions extends BuildAppOptions, FastifyOptions {
  /** Runs pg-boss in this role (none by default: scheduling then queues nothing). */
  jobs?: JobRole;
  /** With `jobs`: only these queues. */
  queues?: string[];
  /** Runs on this (migrated) database instead of a fresh one; `close()` then leaves it open. */
  database?: Database;
  /** The webhook receivers (the registry's unless given). */
  webhookReceivers?: RuntimeOptions['webhookReceivers'];
}

/** Builds the real app on a fresh database, with the same composition root as the server. */
export async function createTestApp(
  env: Record<string, string> = {},
  {
    jobs,
    queues,
    logger = false,
    database: shared,
    webhookReceivers,
    ...options
  }: TestAppOptions = {},
): Promise<TestApp> {
  const { database, drop } = shared
    ? { database: shared, drop: async () => {} }
    : await createTestDatabase();
  const config = testConfig(env);
  const app = createFastify(config, { logger });
  const runtime = await createRuntime(config, database, {
    http: sandboxFetch(app, config),
    log: app.log,
    jobs: jobs ?? null,
    queues,
    now: options.now,
    webhookReceivers,
  });
  const built = await buildApp(app, config, database, runtime, options);
  await runtime.startJobs();
  await app.ready();
  return {
    app,
    networks: built.networks,
    cipher: built.cipher,
    orgRoutes: built.orgRoutes,
    publishQueue: built.publishQueue,
    publisher: built.publisher,
    runtime,
    database,
    config,
    async close() {
      await runtime.stopJobs({ graceful: false, timeout: 2000 }).catch(() => {});
      await app.close();
      await runtime.close();
      await drop();
    },
  };
}

/**
 * The app's clock (`now` of createTestApp), the machine's until `hold()` stops it at the moment
 * it is called. A test that counts "today" holds it, so midnight passing between its requests
 * cannot move the day under it.
 */
export function holdableClock() {
  let held: Date | null = null;
  return {
    now: () => held ?? new Date(),
    hold() {
      held = new Date();
      return held;
    },
    release() {
      held = null;
    },
  };
}

/** A browser's cookie jar, enough for following our own redirects. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        c.maxAge === 0 ||
        (c.expires !== undefined && c.expires.getTime() <= Date.now()) ||
        c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  get(name: string) {
    return this.cookies.get(name);
  }
  set(name: string, value: string) {
    this.cookies.set(name, value);
  }
  delete(name: string) {
    this.cookies.delete(name);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Sends a request carrying the jar's cookies and keeps the ones the answer sets. */
export async function send(
  app: FastifyInstance,
  jar: CookieJar,
  options: InjectOptions & { url: string },
) {
  const res = await app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), cookie: jar.header() },
  });
  jar.store(res);
  return res;
}

const pathOf = (location: string) => {
  const u = new URL(location, TEST_PUBLIC_URL);
  return `${u.pathname}${u.search}`;
};

async function submitSignInForm(
  app: FastifyInstance,
  jar: CookieJar,
  html: string,
  fields: Record<string, string>,
) {
  const action = /action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No sign-in form: ${html.slice(0, 200)}`);
  return send(app, jar, {
    method: 'POST',
    url: action,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_PUBLIC_URL },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Starts a sign-in and returns the provider's sign-in page (the HTML form). */
export async function openSignInForm(app: FastifyInstance, jar = new CookieJar()) {
  let res = await send(app, jar, { method: 'GET', url: '/api/auth/google' });
  for (let i = 0; i < 5 && res.statusCode >= 300 && res.statusCode < 400; i++) {
    res = await send(app, jar, { method: 'GET', url: pathOf(res.headers.location as string) });
  }
  return {
    res,
    jar,
    submit: (fields: Record<string, string>) => submitSignInForm(app, jar, res.body, fields),
  };
}

/**
 * Walks the development sign-in as a browser would (Herald → provider → form → consent) up to,
 * not including, Herald's callback. Returns the callback path with its code and state.
 */
export async function signInUntilCallback(
  app: FastifyInstance,
  email: string,
  name = 'Test Person',
  jar = new CookieJar(),
) {
  const form = await openSignInForm(app, jar);
  let res = await form.submit({ email, name });
  for (let i = 0; i < 10; i++) {
    const location = res.headers.location as string | undefined;
    if (!location)
      throw new Error(`Sign-in stopped with ${res.statusCode}: ${res.body.slice(0, 300)}`);
    const path = pathOf(location);
    if (path.startsWith('/api/auth/google/callback')) return { callbackPath: path, jar };
    res = await send(app, jar, { method: 'GET', url: path });
  }
  throw new Error('Sign-in did not reach the callback.');
}

/** The whole development sign-in; returns the final redirect (to the SPA) and the signed-in jar. */
export async function signInThroughDevProvider(
  app: FastifyInstance,
  email: string,
  name = 'Test Person',
  jar = new CookieJar(),
) {
  const { callbackPath } = await signInUntilCallback(app, email, name, jar);
  const res = await send(app, jar, { method: 'GET', url: callbackPath });
  return { location: res.headers.location as string, jar, callbackPath };
}
