import { META_GRAPH_VERSIONS } from '../../lib/api-versions.js';

/**
 * Where the Meta Graph API lives (docs/networks.md#sandboxes). Facebook Pages and Instagram with
 * Facebook Login share every host; only the scopes and the calls after sign-in differ.
 */
export interface MetaUrls {
  /** Host of the Login dialog: {dialogBase}/{graphVersion}/dialog/oauth. */
  dialogBase: string;
  /** Every Graph call, video uploads included (graph-video.facebook.com is deprecated). */
  graphBase: string;
  ruploadBase: string;
  /**
   * Meta retires a version about two years after its release, so it comes from
   * META_GRAPH_VERSION (`withGraphVersion`); `herald doctor` warns before it ends
   * (lib/api-versions.ts). Threads has its own host and version (threads/limits.ts).
   */
  graphVersion: string;
}

export const META_PRODUCTION_URLS: MetaUrls = {
  dialogBase: 'https://www.facebook.com',
  graphBase: 'https://graph.facebook.com',
  ruploadBase: 'https://rupload.facebook.com',
  graphVersion: META_GRAPH_VERSIONS.defaultVersion,
};

/** The same hosts on the emulator mounted at `base`: one server answers them all. */
export function metaSandboxUrls(base: string): MetaUrls {
  const root = base.replace(/\/+$/, '');
  return {
    dialogBase: root,
    graphBase: root,
    ruploadBase: root,
    graphVersion: META_PRODUCTION_URLS.graphVersion,
  };
}

/** The URLs with the configured Graph API version. */
export const withGraphVersion = (urls: MetaUrls, versions: { meta: string }): MetaUrls => ({
  ...urls,
  graphVersion: versions.meta,
});
