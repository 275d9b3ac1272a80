/**
 * Where the Meta Graph API lives (docs/networks.md#sandboxes). Facebook Pages and Instagram with
 * Facebook Login share every host; only the scopes and the calls after sign-in differ.
 */
export interface MetaUrls {
  /** Host of the Login dialog: {dialogBase}/{graphVersion}/dialog/oauth. */
  dialogBase: string;
  graphBase: string;
  graphVideoBase: string;
  ruploadBase: string;
  /** Keep in config: Meta retires a version about two years after its release. */
  graphVersion: string;
}

export const META_PRODUCTION_URLS: MetaUrls = {
  dialogBase: 'https://www.facebook.com',
  graphBase: 'https://graph.facebook.com',
  graphVideoBase: 'https://graph-video.facebook.com',
  ruploadBase: 'https://rupload.facebook.com',
  graphVersion: 'v24.0',
};

/** The same hosts on the emulator mounted at `base`: one server answers them all. */
export function metaSandboxUrls(base: string): MetaUrls {
  const root = base.replace(/\/+$/, '');
  return {
    dialogBase: root,
    graphBase: root,
    graphVideoBase: root,
    ruploadBase: root,
    graphVersion: META_PRODUCTION_URLS.graphVersion,
  };
}
