import type { NetworkModule } from '../network-module.js';
import { createBlueskyAdapter } from './adapter.js';
import { type BlueskyUrls, createBlueskyApi } from './api.js';
import { createBlueskyInbox } from './inbox.js';
import { BLUESKY_CONCURRENCY } from './limits.js';
import { createBlueskyMetrics } from './metrics.js';
import { clientJwks, clientMetadata, createBlueskyOAuth, oauthClientOf } from './oauth.js';
import { BLUESKY_SETUP, blueskyTokenProbe } from './setup.js';

export const network: NetworkModule<BlueskyUrls, 'Bluesky'> = {
  name: 'Bluesky',
  slug: 'bluesky',
  // Each account's PDS comes from its DID document; these are the services around it.
  productionUrls: {
    handleResolver: 'https://public.api.bsky.app',
    plcDirectory: 'https://plc.directory',
    appView: 'https://public.api.bsky.app',
    videoService: 'https://video.bsky.app',
    web: 'https://bsky.app',
  },
  sandboxUrls: (base) => ({
    handleResolver: base,
    plcDirectory: `${base}/plc`,
    appView: base,
    videoService: `${base}/video`,
    web: `${base}/web`,
  }),
  publishCaps: { concurrency: BLUESKY_CONCURRENCY },
  setup: BLUESKY_SETUP,
  tokenProbe: blueskyTokenProbe,
  // Files are uploaded to the account's PDS (uploadBlob) or to the video service.
  pullsMediaByUrl: false,
  webhookReceiver: null,
  createAdapter: (settings) => {
    const api = createBlueskyApi(settings);
    // Link cards read pages people linked to: always through the SSRF guard.
    const fetchLinked = settings.fetchLinked;
    // Signing in on Bluesky needs a public https address (authorization servers fetch the client
    // id); its servers come from what people type, so they are reached as the PDSes are.
    const client = oauthClientOf(settings);
    const adapter = createBlueskyAdapter(
      api,
      (url) =>
        fetchLinked ? fetchLinked(url) : Promise.reject(new Error('no reader of linked pages')),
      settings.writePoints,
      client ? createBlueskyOAuth(settings.http, client) : null,
    );
    return {
      ...adapter,
      oauthDocuments: () =>
        client ? { clientMetadata: clientMetadata(client), jwks: clientJwks(client) } : null,
      metrics: createBlueskyMetrics(api),
      inbox: createBlueskyInbox(api, adapter.publishing!),
    };
  },
};
