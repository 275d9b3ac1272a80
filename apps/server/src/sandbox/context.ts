import type { FastifyInstance } from 'fastify';
import type { ResolveSigner, ResolveTenant } from './kit/tenant.js';
import type { SandboxStore } from './store.js';

/** What a network emulator gets when it is mounted under `{api}/sandbox/{slug}`. */
export interface SandboxContext {
  /** Public base URL of this emulator, e.g. http://localhost:3000/api/sandbox/x. */
  publicBase: string;
  /** Path prefix the routes are mounted under, e.g. /api/sandbox/x (for form actions). */
  mountPath: string;
  /** The only client the sandbox knows: Herald itself. */
  clientId: string;
  clientSecret: string;
  /**
   * The network has not audited Herald's app (TIKTOK_UNAUDITED): the emulator refuses what such
   * an app may not do, as the network does.
   */
  unaudited: boolean;
  store: SandboxStore;
  /**
   * Told explicitly that it runs beside Herald (SANDBOX_LOCAL_MEDIA, the development default):
   * media URLs on loopback or private addresses are accepted. Otherwise the sandbox refuses them
   * as the network would, since it could not fetch them.
   */
  runsLocally: boolean;
  /** Herald's public API URL (the base of its webhook receivers), e.g. http://localhost:3000/api. */
  heraldApi: string;
  /**
   * How the emulator reaches Herald's webhook receivers (deliveries, X's CRC check, Meta's
   * handshake), and nothing else: a URL that is not one of `{heraldApi}/webhooks/{provider}` is
   * refused before any request (see `heraldReceiver`). In the API process the receivers are
   * answered in-process, as the sandboxes' own URLs are.
   */
  deliver: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /**
   * How the emulator reads a media file Herald handed out (`{heraldApi}/media/{key}`), to check
   * it as the network would, and nothing else: any other URL is refused before a request is
   * made, and a redirect is not followed (see `heraldMediaOnly`). In the API process Herald's
   * media route is answered in-process.
   */
  fetchMedia: (url: string) => Promise<Response>;
  /**
   * How the emulator reads Herald's OAuth client documents (`{heraldApi}/oauth/…`: Bluesky's
   * client metadata and JWKS, fetched from the client id as the network does), and nothing else:
   * any other URL is refused before a request is made, so no caller of a sandbox makes the server
   * fetch a URL of their choosing (see `heraldClientDocumentsOnly`). In the API process they are
   * answered in-process.
   */
  fetchClientDocument: (url: string) => Promise<Response>;
  /**
   * Told after `POST /_emu/clock` moved the emulator's clock forward by `seconds`: the network's
   * time went on, and whoever runs the emulator beside Herald passes that on (the composition
   * root: readings Herald scheduled by a post's age come sooner). None: nothing is told.
   */
  clockMoved?: (seconds: number) => Promise<void>;
  /** Who a test-facing `/_emu/` request acts for (kit/tenant.ts). */
  tenantOf: ResolveTenant;
  /** Who is on the consent page: whose sandbox accounts they may sign in as (kit/tenant.ts). */
  signerOf: ResolveSigner;
}

/** Registers one emulator's routes, relative to its mount path. */
export type RegisterSandbox = (scope: FastifyInstance, ctx: SandboxContext) => Promise<void> | void;
