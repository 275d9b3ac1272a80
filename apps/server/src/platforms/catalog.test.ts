import { PLATFORM_NAMES, platformSlug } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { SANDBOXES } from '../sandbox/catalog.js';
import { NETWORK_MODULES, NETWORKS } from './catalog.js';
import { WEBHOOK_RECEIVERS } from './inbox-receivers.js';
import { appCredentials, appOf, isUnaudited } from './network-env.js';
import { PULLS_MEDIA_BY_URL } from './public-media-url.js';
import { unauditedNetworks } from './runtime.js';

/**
 * What the types of the catalogs cannot say: the slug every route and sandbox is keyed by is the
 * name's, and the lists derived from the modules hold what each module declares, once.
 */
describe('the network catalog', () => {
  it('has one module per platform name, whose slug is the lowercase name', () => {
    expect(NETWORK_MODULES.map((m) => m.name)).toEqual(Object.keys(NETWORKS));
    expect([...NETWORK_MODULES.map((m) => m.name)].sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const m of NETWORK_MODULES) expect(m.slug, m.name).toBe(platformSlug(m.name));
  });

  it('has an emulator for every network, at its slug', () => {
    expect(Object.keys(SANDBOXES).sort()).toEqual(NETWORK_MODULES.map((m) => m.slug).sort());
  });

  it('wires each webhook receiver once, with one receiver per provider', () => {
    const declared = NETWORK_MODULES.flatMap((m) => (m.webhookReceiver ? [m.webhookReceiver] : []));
    expect(new Set(WEBHOOK_RECEIVERS)).toEqual(new Set(declared));
    const providers = WEBHOOK_RECEIVERS.map((r) => r.provider);
    expect(new Set(providers).size).toBe(providers.length);
    expect(providers.sort()).toEqual(['meta', 'threads', 'x']);
  });

  it('says which networks pull media by URL', () => {
    expect([...PULLS_MEDIA_BY_URL].sort()).toEqual([
      'facebook',
      'googlebusiness',
      'instagram',
      'threads',
      'tiktok',
    ]);
  });

  it('reads each app’s credentials and audit flag from the variables its setup names', () => {
    for (const m of NETWORK_MODULES)
      for (const kind of [null, ...(m.connectKinds ?? [])]) {
        const app = appOf(m, kind);
        const env = {
          [app.env.clientId]: `${app.env.clientId}-value`,
          [app.env.clientSecret]: `${app.env.clientSecret}-value`,
          ...(app.audit ? { [app.audit.env]: 'true' } : {}),
        };
        const config = loadConfig(env);
        if (app.perServerApps) {
          // Herald registers itself on each server: no variable is read, in production or not.
          expect(appCredentials(config, app), m.name).toBeNull();
          expect(appCredentials({ ...config, isProduction: true }, app)).toEqual({
            clientId: '',
            clientSecret: '',
          });
          // Outside production its flag takes it to the real servers, as credentials do the others.
          expect(app.realServersEnv, m.name).toMatch(/_REAL_SERVERS$/);
          const real = loadConfig({ ...env, [app.realServersEnv!]: 'true' });
          expect(real.isProduction).toBe(false);
          expect(appCredentials(real, app)).toEqual({ clientId: '', clientSecret: '' });
          expect(appCredentials(loadConfig({ [app.realServersEnv!]: 'false' }), app)).toBeNull();
          continue;
        }
        expect(appCredentials(config, app), app.env.clientId).toEqual({
          clientId: `${app.env.clientId}-value`,
          clientSecret: `${app.env.clientSecret}-value`,
        });
        expect(isUnaudited(config, app), m.name).toBe(Boolean(app.audit));
        expect(appCredentials(loadConfig({}), app)).toBeNull();
      }
    expect(unauditedNetworks(loadConfig({ TIKTOK_UNAUDITED: 'true' }))).toEqual(['tiktok']);
    expect(unauditedNetworks(loadConfig({}))).toEqual([]);
  });

  it('gives each network its inbox poll minutes from INBOX_POLL_MINUTES_<SLUG>', () => {
    const env = Object.fromEntries(
      NETWORK_MODULES.map((m, i) => [`INBOX_POLL_MINUTES_${m.slug.toUpperCase()}`, `${i + 1}`]),
    );
    const { pollMinutes } = loadConfig(env).inbox;
    NETWORK_MODULES.forEach((m, i) => expect(pollMinutes[m.slug], m.slug).toBe(i + 1));
  });

  it('gives every connect kind of its own app its own credentials', () => {
    for (const m of NETWORK_MODULES) {
      const apps = (m.connectKinds ?? []).map((k) => (k.setup ?? m.setup).env.clientId);
      expect(new Set(apps).size, m.name).toBe(apps.length);
    }
  });
});
