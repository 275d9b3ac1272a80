import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createNetworkAdapter } from '../platforms/connect-kinds.js';
import type { NetworkModule } from '../platforms/network-module.js';
import type { AdapterSettings, PlatformAdapter } from '../platforms/types.js';
import { createTestDatabase } from './database.js';
import { decodeHtml, emuCall, harnessDeliver, type HarnessOptions } from './sandbox-harness.js';
import type { SandboxContext } from '../sandbox/context.js';
import { registerSandbox } from '../sandbox/index.js';
import {
  heraldClientDocumentsOnly,
  heraldMediaOnly,
  receiversOnly,
} from '../sandbox/kit/herald-receiver.js';
import { WHOLE_SANDBOX, WHOLE_SANDBOX_SIGNER } from '../sandbox/kit/tenant.js';
import { createSandboxStore } from '../sandbox/store.js';

/**
 * For tests: a network's sandbox served over real HTTP (same form parser as `mountSandboxes`)
 * and its real adapter pointed at it with global fetch, plus a scripted browser for the
 * consent page. `restart()` serves the same database from a new process-like app.
 */
export interface SandboxHarness<Urls> {
  origin: string;
  base: string;
  /** Herald's public API URL as the sandbox knows it: its receivers are `{heraldApi}/webhooks/…`. */
  heraldApi: string;
  redirectUri: string;
  settings: AdapterSettings<Urls>;
  adapter: PlatformAdapter;
  adapterWith(overrides: Partial<AdapterSettings<Urls>>): PlatformAdapter;
  /** Opens the authorize URL, fills the consent form and returns where it redirected. */
  authorize(options?: AuthorizeOptions): Promise<AuthorizeResult>;
  /** A switch (`true`/`false`) or a numeric knob's value (`fail_next`, `latency_ms`…). */
  setKnob(account: string, knob: string, on?: boolean | number): Promise<void>;
  calls(): Promise<
    Array<{
      method: string;
      path: string;
      query: Record<string, unknown>;
      body: Record<string, unknown> | null;
    }>
  >;
  /** Everything published (`GET /_emu/posts`), oldest first. */
  posts(account?: string): Promise<EmuPost[]>;
  /** Someone else comments on a post, or replies to a comment (`POST /_emu/comments`). */
  comment(postId: string, fromName: string, message: string): Promise<{ id: string }>;
  /** Moves the emulator's clock forward (container expiry, quota windows, token lifetimes). */
  advanceClock(seconds: number): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface EmuPost {
  id: string;
  network: 'instagram' | 'facebook';
  account: string;
  accountName: string;
  kind: string;
  text: string;
  mediaCount: number;
  permalink: string;
  createdAt: string;
}

export interface AuthorizeOptions {
  fields?: Record<string, string>;
  decision?: 'approve' | 'deny';
  /** Edits the authorize URL before the "browser" opens it (e.g. fewer scopes). */
  editUrl?: (url: URL) => void;
  /** The connect kind to sign in for (networks with several, e.g. LinkedIn `organization`). */
  kind?: string;
}

export interface AuthorizeResult {
  location: URL;
  code: string | null;
  state: string | null;
  sentState: string;
  html: string;
}

const PREFIX = '/api/sandbox';
const CLIENT_SECRET = 'sandbox-secret-for-tests';
/** A Herald that is not there: deliveries to its receivers go to the test's stand-in. */
const HERALD_API = 'http://localhost:3000/api';

/** The consent form's action and the values its inputs carry (hidden and pre-filled). */
export function parseForm(html: string) {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form in: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of html.matchAll(/<input\b[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[decodeHtml(name)] = decodeHtml(value ?? '');
  }
  return { action: decodeHtml(action), fields };
}

export async function startSandboxHarness<Urls>(
  module: NetworkModule<Urls>,
  { runsLocally = true, heraldStandIn }: HarnessOptions = {},
): Promise<SandboxHarness<Urls>> {
  const { database, drop } = await createTestDatabase();
  const mountPath = `${PREFIX}/${module.slug}`;
  let app: FastifyInstance;

  async function serve() {
    const ctx: SandboxContext = {
      publicBase: '',
      mountPath,
      clientId: 'herald-sandbox',
      clientSecret: CLIENT_SECRET,
      unaudited: false,
      store: createSandboxStore(database.db, module.slug),
      runsLocally,
      heraldApi: HERALD_API,
      deliver: receiversOnly(HERALD_API, harnessDeliver(HERALD_API, heraldStandIn)),
      fetchMedia: heraldMediaOnly(HERALD_API, harnessDeliver(HERALD_API, heraldStandIn)),
      fetchClientDocument: heraldClientDocumentsOnly(
        HERALD_API,
        harnessDeliver(HERALD_API, heraldStandIn),
      ),
      // One emulator for one test file: the whole sandbox is the caller's.
      tenantOf: async () => WHOLE_SANDBOX,
      signerOf: async () => WHOLE_SANDBOX_SIGNER,
    };
    app = Fastify({ logger: false });
    await app.register((scope) => registerSandbox(scope, module.slug, ctx), {
      prefix: mountPath,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    harness.origin = `http://127.0.0.1:${port}`;
    harness.base = `${harness.origin}${mountPath}`;
    ctx.publicBase = harness.base;
    harness.redirectUri = `${harness.origin}/api/auth/${module.slug}/callback`;
    harness.settings = {
      clientId: 'herald-sandbox',
      clientSecret: CLIENT_SECRET,
      urls: module.sandboxUrls(harness.base),
      http: (url, init) => fetch(url, init),
    };
    harness.adapter = adapterOf(harness.settings);
  }

  /** The module's adapter; a network with connect kinds gets every kind on these settings. */
  const adapterOf = (settings: AdapterSettings<Urls>) =>
    createNetworkAdapter(module, () => ({ ...settings, sandbox: true }))!.adapter;

  const emu = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    emuCall(harness.base, method, path, body);

  const harness: SandboxHarness<Urls> = {
    origin: '',
    base: '',
    heraldApi: HERALD_API,
    redirectUri: '',
    settings: undefined as unknown as AdapterSettings<Urls>,
    adapter: undefined as unknown as PlatformAdapter,
    adapterWith: (overrides) => adapterOf({ ...harness.settings, ...overrides }),

    async authorize({ fields = {}, decision = 'approve', editUrl, kind } = {}) {
      const sentState = randomBytes(8).toString('hex');
      const url = new URL(
        harness.adapter.authorizeUrl({
          redirectUri: harness.redirectUri,
          state: sentState,
          codeChallenge: 'unused',
          ...(kind ? { kind } : {}),
        }),
      );
      editUrl?.(url);
      const page = await fetch(url, { redirect: 'manual' });
      const html = await page.text();
      if (page.status !== 200) throw new Error(`Authorize page answered ${page.status}: ${html}`);
      const form = parseForm(html);
      const answer = await fetch(new URL(form.action, harness.origin), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form.fields, ...fields, decision }),
        redirect: 'manual',
      });
      const location = answer.headers.get('location');
      if (answer.status !== 302 || !location) {
        throw new Error(`Consent answered ${answer.status}: ${await answer.text()}`);
      }
      const target = new URL(location);
      return {
        location: target,
        code: target.searchParams.get('code'),
        state: target.searchParams.get('state'),
        sentState,
        html,
      };
    },

    async setKnob(account, knob, on = true) {
      const setting = typeof on === 'number' ? { value: on } : { on };
      await emu('POST', 'scenario', { account, knob, ...setting });
    },

    async posts(account) {
      const query = account ? `?account=${encodeURIComponent(account)}` : '';
      return ((await emu('GET', `posts${query}`)) as { posts: EmuPost[] }).posts;
    },

    comment: (postId, fromName, message) => emu('POST', 'comments', { postId, fromName, message }),

    async advanceClock(seconds) {
      await emu('POST', 'clock', { advance_seconds: seconds });
    },

    async calls() {
      const res = await fetch(`${harness.base}/_emu/calls`);
      return ((await res.json()) as { calls: [] }).calls;
    },

    async restart() {
      await app.close();
      await serve();
    },

    async close() {
      await app.close();
      await drop();
    },
  };
  await serve();
  return harness;
}
