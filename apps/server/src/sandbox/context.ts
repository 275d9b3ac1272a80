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
  /**
   * How the emulator reaches Herald's own callback URLs (webhook deliveries, X's CRC check): in
   * the API process, requests under Herald's public API URL are answered in-process, as the
   * sandboxes' own URLs are; anything else goes over the network.
   */
  deliver: (url: string | URL, init?: RequestInit) => Promise<Response>;
}
