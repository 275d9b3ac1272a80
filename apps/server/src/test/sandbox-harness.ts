import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { loadConfig } from '../config.js';
import type { NetworkModule } from '../platforms/network-module.js';
import {
  buildNetworks,
  sandboxAppSecret,
  sandboxBase,
  SANDBOX_CLIENT_ID,
} from '../platforms/runtime.js';
import { mountSandboxes } from '../sandbox/index.js';
import { WHOLE_SANDBOX, WHOLE_SANDBOX_SIGNER } from '../sandbox/kit/tenant.js';
import type { AdapterSettings, ServerApp } from '../platforms/types.js';
import { createTestDatabase } from './database.js';
import type { RecordedCall } from '../sandbox/kit/call-log.js';

/**
 * Test harness: one network's emulator mounted exactly as the server mounts it
 * (`mountSandboxes` of sandbox/index.ts), on a fresh database, listening on a real port, and the real adapter
 * pointed at it over real HTTP. `authorize` plays the browser on the consent page.
 */
const harnessRedirectUri = (slug: string) => `http://localhost:3000/api/auth/${slug}/callback`;

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Undoes the HTML escaping of the consent page's attributes. */
export const decodeHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  );

/** Calls an emulator's test-facing endpoint `{base}/_emu/{path}` and returns its JSON. */
export async function emuCall(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<any> {
  const res = await fetch(`${base}/_emu/${path}`, {
    method,
    ...(body
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  if (!res.ok) throw new Error(`_emu/${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export interface AuthorizeOptions {
  account?: string;
  /** Networks of many servers: the server signed in on, and Herald's app there. */
  server?: ServerApp;
  decision?: 'approve' | 'deny';
  state?: string;
  codeChallenge?: string;
  redirectUri?: string;
  /** Changes the authorize URL before the browser opens it. */
  alter?: (url: URL) => void;
}

export interface HarnessOptions {
  /** `runsLocally: false` makes the sandbox refuse media URLs the real network could not fetch. */
  runsLocally?: boolean;
  /**
   * Where the test's own stand-in for Herald's API listens (its `/webhooks/{provider}`): the
   * sandbox delivers only to Herald's receivers, and the harness carries those deliveries there.
   */
  heraldStandIn?: () => string;
}

/**
 * The sandbox's `deliver` in a harness: Herald's receivers (the only URLs the sandbox reaches)
 * answered by the test's stand-in, or nowhere.
 */
export const harnessDeliver =
  (heraldApi: string, standIn: (() => string) | undefined) =>
  (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (!standIn) return Promise.reject(new Error('This harness has no stand-in for Herald.'));
    const target = new URL(url);
    const rest = target.href.slice(heraldApi.length);
    return fetch(`${standIn().replace(/\/$/, '')}${rest}`, init);
  };

export async function startSandboxHarness<Urls>(
  module: NetworkModule<Urls>,
  { runsLocally = true, heraldStandIn }: HarnessOptions = {},
) {
  const { database, drop } = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
  });
  const sandboxSecret = randomBytes(24).toString('base64url');
  const clientSecret = sandboxAppSecret(sandboxSecret, module.slug);
  const networks = buildNetworks(config, fetch, sandboxSecret, [module]);
  async function serve(port: number) {
    const server = Fastify({ logger: false });
    await mountSandboxes(server, networks.keys(), {
      db: database.db,
      apiBasePath: config.apiBasePath,
      publicBase: (slug) => sandboxBase(config, slug),
      heraldApi: config.apiPublicUrl,
      clientId: SANDBOX_CLIENT_ID,
      clientSecret: (slug) => sandboxAppSecret(sandboxSecret, slug),
      // One emulator for one test file: the whole sandbox is the caller's.
      tenantOf: () => async () => WHOLE_SANDBOX,
      signerOf: () => async () => WHOLE_SANDBOX_SIGNER,
      runsLocally,
      deliver: harnessDeliver(config.apiPublicUrl, heraldStandIn),
      fetchMedia: harnessDeliver(config.apiPublicUrl, heraldStandIn),
    });
    return { server, origin: await server.listen({ host: '127.0.0.1', port }) };
  }
  let { server: app, origin } = await serve(0);
  const base = `${origin}${config.apiBasePath}/sandbox/${module.slug}`;
  const settings: AdapterSettings<Urls> = {
    clientId: SANDBOX_CLIENT_ID,
    clientSecret,
    urls: module.sandboxUrls(base),
    http: fetch,
  };
  const adapter = module.createAdapter(settings);
  /** Herald's callback for this network: the only redirect_uri the emulator accepts. */
  const redirectUri = harnessRedirectUri(module.slug);

  const emu = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    emuCall(base, method, path, body);

  /** Opens the authorize URL and answers the consent form; returns where the browser lands. */
  async function authorize(opts: AuthorizeOptions = {}): Promise<URL> {
    const url = new URL(
      adapter.authorizeUrl({
        ...(opts.server ? { server: opts.server } : {}),
        redirectUri: opts.redirectUri ?? redirectUri,
        state: opts.state ?? 'state-1',
        codeChallenge: opts.codeChallenge ?? pkcePair().challenge,
      }),
    );
    opts.alter?.(url);
    const page = await fetch(url, { redirect: 'manual' });
    if (page.status >= 300 && page.status < 400) return new URL(page.headers.get('location')!);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (page.status !== 200 || !action)
      throw new Error(`No consent form (${page.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
      fields.set(decodeHtml(m[1]!), decodeHtml(m[2]!));
    fields.set('account', opts.account ?? 'sandbox_user');
    fields.set('decision', opts.decision ?? 'approve');
    const answer = await fetch(`${origin}${decodeHtml(action)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields,
      redirect: 'manual',
    });
    const location = answer.headers.get('location');
    if (answer.status !== 302 || !location)
      throw new Error(`Consent answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
    return new URL(location);
  }

  /** Approves as `account` and connects with the code, as Herald's callback would. */
  async function connectAs(account: string) {
    const { verifier, challenge } = pkcePair();
    const landed = await authorize({ account, codeChallenge: challenge });
    const code = landed.searchParams.get('code');
    if (!code) throw new Error(`No code in ${landed.toString()}`);
    const accounts = await adapter.connect({
      code,
      redirectUri,
      codeVerifier: verifier,
    });
    return { account: accounts[0]!, accounts, code, verifier };
  }

  return {
    base,
    origin,
    /** Herald's public API URL as the sandbox knows it: its receivers are `{heraldApi}/webhooks/…`. */
    heraldApi: config.apiPublicUrl,
    redirectUri,
    settings,
    adapter,
    /** An adapter with different settings (a wrong secret…), same emulator. */
    adapterWith: (overrides: Partial<AdapterSettings<Urls>>) =>
      module.createAdapter({ ...settings, ...overrides }),
    authorize,
    connectAs,
    /** `value`: the number of a knob that carries one (latency_ms, fail_next…). */
    setKnob: (account: string, knob: string, on = true, value?: number) =>
      emu('POST', 'scenario', { account, knob, on, ...(value !== undefined ? { value } : {}) }),
    /** Any other test-facing endpoint under `_emu/` (posts, comments…). */
    emu,
    /** The migrated test database the emulator keeps its state in (Herald's tables are there too). */
    db: database.db,
    advanceClock: (seconds: number) => emu('POST', 'clock', { advance_seconds: seconds }),
    calls: async (path = ''): Promise<RecordedCall[]> =>
      ((await emu('GET', `calls?path=${encodeURIComponent(path)}`)) as { calls: RecordedCall[] })
        .calls,
    /** Stops the emulator and starts a new one on the same port and database. */
    async restart() {
      await app.close();
      // Let fetch notice its kept-alive sockets were closed before it reuses one.
      await new Promise((resolve) => setTimeout(resolve, 100));
      ({ server: app, origin } = await serve(Number(new URL(origin).port)));
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

export type SandboxHarness<Urls> = Awaited<ReturnType<typeof startSandboxHarness<Urls>>>;
