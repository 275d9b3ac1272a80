import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { network as linkedin } from '../linkedin/index.js';
import type { LinkedInUrls } from '../linkedin/urls.js';
import type { NetworkModule } from '../network-module.js';
import { checkNetworkSetup } from './preflight.js';

const dev = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:3000', ...env });
const prod = (env: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://herald.example.com',
    GOOGLE_CLIENT_ID: 'g',
    GOOGLE_CLIENT_SECRET: 'g',
    SESSION_SECRET: 'x'.repeat(32),
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    BILLING_PROVIDER: 'none',
    ...env,
  });

const setupOf = (report: ReturnType<typeof checkNetworkSetup>, slug: string) =>
  report.find((n) => n.slug === slug)!;
const levels = (network: { findings: Array<{ level: string }> }) =>
  network.findings.map((f) => f.level);
const byTopic = (
  network: { findings: Array<{ level: string; topic: string; message: string }> },
  topic: string,
) => network.findings.filter((f) => f.topic === topic);

describe('the network setup preflight', () => {
  it('says whether Google Business Profile reviews are pushed through Pub/Sub or read every 30 minutes', () => {
    const credentials = {
      GOOGLE_BUSINESS_CLIENT_ID: 'g',
      GOOGLE_BUSINESS_CLIENT_SECRET: 'g',
    };
    const polled = setupOf(checkNetworkSetup(prod(credentials)), 'googlebusiness');
    expect(byTopic(polled, 'inbox')).toEqual([
      expect.objectContaining({
        level: 'ok',
        message: expect.stringMatching(
          /^Reviews are read every 30 minutes\. .*set GOOGLE_BUSINESS_PUBSUB_TOPIC and GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT/,
        ),
      }),
    ]);
    const pushed = setupOf(
      checkNetworkSetup(
        prod({
          ...credentials,
          GOOGLE_BUSINESS_PUBSUB_TOPIC: 'projects/acme-herald/topics/reviews',
          GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: 'push@acme-herald.iam.gserviceaccount.com',
        }),
      ),
      'googlebusiness',
    );
    const [said] = byTopic(pushed, 'inbox');
    expect(said!.message).toMatch(
      /pushed through Cloud Pub\/Sub \(projects\/acme-herald\/topics\/reviews\)/,
    );
    expect(said!.message).toContain('https://herald.example.com/api/webhooks/googlebusiness');
    expect(said!.message).toContain('push@acme-herald.iam.gserviceaccount.com');
    expect(said!.message).toContain('mybusiness-api-pubsub@system.gserviceaccount.com');
  });

  it('tells YouTube operators that unverified projects upload private only and testing-mode tokens die in 7 days', () => {
    const youtube = setupOf(
      checkNetworkSetup(prod({ YOUTUBE_CLIENT_ID: 'y', YOUTUBE_CLIENT_SECRET: 'y' })),
      'youtube',
    );
    expect(youtube.mode).toBe('configured');
    expect(byTopic(youtube, 'audit')[0]!.message).toMatch(
      /set YOUTUBE_UNAUDITED=true, or YouTube refuses every video that is not private/,
    );
    expect(byTopic(youtube, 'tokens')[0]).toMatchObject({
      level: 'warning',
      message: expect.stringMatching(/expire after 7 days .* testing mode/),
    });
    const unaudited = setupOf(
      checkNetworkSetup(
        prod({ YOUTUBE_CLIENT_ID: 'y', YOUTUBE_CLIENT_SECRET: 'y', YOUTUBE_UNAUDITED: 'true' }),
      ),
      'youtube',
    );
    expect(byTopic(unaudited, 'audit')[0]!.message).toMatch(/locks every video .* to private/);
  });

  it('tells Pinterest operators what Trial access allows, and where Pinterest’s API sandbox is', () => {
    const pinterest = setupOf(
      checkNetworkSetup(prod({ PINTEREST_APP_ID: 'p', PINTEREST_APP_SECRET: 'p' })),
      'pinterest',
    );
    expect(pinterest.mode).toBe('configured');
    expect(byTopic(pinterest, 'audit')[0]!.message).toMatch(
      /set PINTEREST_UNAUDITED=true, or Pinterest refuses every pin created in production/,
    );
    const notes = byTopic(pinterest, 'tokens').map((f) => f.message);
    expect(notes.join(' ')).toMatch(/continuous refresh tokens/);
    expect(notes.join(' ')).toMatch(
      /visible only to their creator.*https:\/\/api-sandbox\.pinterest\.com\/v5/,
    );
    const trial = setupOf(
      checkNetworkSetup(
        prod({ PINTEREST_APP_ID: 'p', PINTEREST_APP_SECRET: 'p', PINTEREST_UNAUDITED: 'true' }),
      ),
      'pinterest',
    );
    expect(byTopic(trial, 'audit')[0]).toMatchObject({
      level: 'warning',
      message: expect.stringMatching(/visible only to their creator.*apply for Standard access/),
    });
  });

  it('finds nothing wrong in development without credentials: every network runs on its sandbox', () => {
    const report = checkNetworkSetup(dev());
    expect(report.map((n) => n.slug)).toEqual([
      'x',
      'facebook',
      'instagram',
      'linkedin',
      'linkedin',
      'threads',
      'tiktok',
      'mastodon',
      'bluesky',
      'youtube',
      'googlebusiness',
      'pinterest',
    ]);
    for (const network of report) {
      expect(network.mode).toBe('sandbox');
      // Bluesky also says whether its own sign-in page is offered (not on http).
      expect(levels(network)).toEqual(network.slug === 'bluesky' ? ['ok', 'ok'] : ['ok']);
    }
    expect(setupOf(report, 'x').findings[0]!.message).toBe(
      'X runs against its local sandbox: set X_CLIENT_ID and X_CLIENT_SECRET to connect real X accounts.',
    );
    expect(setupOf(report, 'mastodon').findings[0]!.message).toMatch(
      /^Mastodon needs no developer app and no credentials: .* Outside production Mastodon runs against its local sandbox's servers unless MASTODON_REAL_SERVERS=true\.$/,
    );
  });

  it('calls Mastodon ready in production with no variables: each server registers Herald', () => {
    const mastodon = setupOf(checkNetworkSetup(prod()), 'mastodon');
    expect(mastodon.mode).toBe('configured');
    expect(levels(mastodon)).toEqual(['ok']);
    expect(mastodon.findings[0]!.message).toMatch(/^Mastodon needs no developer app/);
    expect(mastodon.scopes).toEqual(['read', 'write:statuses', 'write:media']);
  });

  it('calls Bluesky ready in production with no variables: people bring app passwords', () => {
    const bluesky = setupOf(checkNetworkSetup(prod()), 'bluesky');
    expect(bluesky.mode).toBe('configured');
    expect(levels(bluesky)).toEqual(['ok', 'ok']);
    expect(bluesky.findings[0]!.message).toMatch(
      /^Bluesky needs no developer app and no variables/,
    );
  });

  it('says whether Bluesky accounts may sign in on Bluesky, and which key Herald signs with', () => {
    const derived = setupOf(checkNetworkSetup(prod()), 'bluesky');
    expect(byTopic(derived, 'credentials')[1]!.message).toBe(
      "Bluesky accounts may sign in on Bluesky (OAuth) beside app passwords: Herald's client id is https://herald.example.com/api/oauth/bluesky/client-metadata.json, signed with a key Herald makes from its own secret (set BLUESKY_OAUTH_PRIVATE_KEY to choose one).",
    );
    const key = JSON.stringify(
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
    );
    const configured = setupOf(
      checkNetworkSetup(prod({ BLUESKY_OAUTH_PRIVATE_KEY: key })),
      'bluesky',
    );
    expect(byTopic(configured, 'credentials')[1]!.message).toMatch(
      /signed with the key in BLUESKY_OAUTH_PRIVATE_KEY\.$/,
    );
    const plain = setupOf(checkNetworkSetup(dev({ BLUESKY_OAUTH_PRIVATE_KEY: key })), 'bluesky');
    expect(byTopic(plain, 'credentials')[1]!.message).toBe(
      'Bluesky accounts connect with app passwords only: signing in on Bluesky (OAuth) needs a public https API_PUBLIC_URL, and http://localhost:3000/api is not one. BLUESKY_OAUTH_PRIVATE_KEY is set but unused until then.',
    );
  });

  it('prints the redirect URI and scopes exactly as the adapter sends them', () => {
    const report = checkNetworkSetup(
      prod({
        API_PUBLIC_URL: 'https://api.herald.example.com/v1',
        X_CLIENT_ID: 'id',
        X_CLIENT_SECRET: 's',
      }),
    );
    const x = setupOf(report, 'x');
    expect(x.mode).toBe('configured');
    expect(x.redirectUri).toBe('https://api.herald.example.com/v1/auth/x/callback');
    expect(x.scopes).toEqual([
      'tweet.read',
      'tweet.write',
      'users.read',
      'media.write',
      'offline.access',
      'dm.read',
      'dm.write',
      'tweet.moderate.write',
    ]);
    expect(byTopic(x, 'redirect')[0]!.message).toContain(
      'Register https://api.herald.example.com/v1/auth/x/callback as a redirect URI',
    );
    expect(levels(x)).not.toContain('problem');
  });

  it('calls an offered network without credentials in production a problem, a switched-off one fine', () => {
    const config = prod({ X_CLIENT_ID: 'id', X_CLIENT_SECRET: 's' });
    const report = checkNetworkSetup(config, {
      active: new Map([
        ['X', true],
        ['TikTok', true],
        ['Threads', false],
      ]),
    });
    const tiktok = setupOf(report, 'tiktok');
    expect(tiktok.mode).toBe('unavailable');
    expect(tiktok.findings).toEqual([
      {
        level: 'problem',
        topic: 'credentials',
        message:
          'Set TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET, or switch TikTok off under Platforms: users are offered TikTok but cannot connect it.',
      },
    ]);
    expect(levels(setupOf(report, 'threads'))).toEqual(['ok']);
    expect(levels(setupOf(report, 'linkedin'))).toEqual(['warning']);
  });

  it('names the missing half of a credential pair', () => {
    const report = checkNetworkSetup(dev({ META_APP_ID: '123' }));
    expect(setupOf(report, 'instagram').findings).toEqual([
      {
        level: 'problem',
        topic: 'credentials',
        message:
          'Set META_APP_SECRET too: with only META_APP_ID set, Herald ignores both and Instagram runs against its local sandbox.',
      },
    ]);
  });

  it('refuses media URLs and redirects a network cannot use for networks that pull media', () => {
    const local = checkNetworkSetup(
      dev({ META_APP_ID: 'm', META_APP_SECRET: 's', THREADS_APP_ID: 't', THREADS_APP_SECRET: 's' }),
    );
    const instagram = setupOf(local, 'instagram');
    expect(byTopic(instagram, 'media')).toEqual([
      {
        level: 'problem',
        topic: 'media',
        message:
          "Set API_PUBLIC_URL to this server's public https address: Instagram fetches post media from http://localhost:3000/api/media/…, but localhost is not reachable from the internet, so those posts will fail.",
      },
    ]);
    // Meta takes http://localhost while the app is in development mode; Threads never.
    expect(byTopic(instagram, 'redirect').map((f) => f.level)).toEqual(['ok', 'warning']);
    expect(byTopic(setupOf(local, 'threads'), 'redirect').map((f) => f.level)).toEqual([
      'ok',
      'problem',
    ]);
    // X receives bytes: no media finding.
    const withX = checkNetworkSetup(dev({ X_CLIENT_ID: 'x', X_CLIENT_SECRET: 's' }));
    expect(byTopic(setupOf(withX, 'x'), 'media')).toEqual([]);

    const public_ = checkNetworkSetup(
      prod({
        API_PUBLIC_URL: 'https://api.herald.example.com',
        META_APP_ID: 'm',
        META_APP_SECRET: 's',
      }),
    );
    expect(byTopic(setupOf(public_, 'instagram'), 'media').map((f) => f.level)).toEqual(['ok']);
    expect(levels(setupOf(public_, 'facebook'))).not.toContain('problem');
  });

  it('checks each LinkedIn connect kind as its own app, with the products its scopes need', () => {
    const report = checkNetworkSetup(
      prod({
        LINKEDIN_CLIENT_ID: 'l',
        LINKEDIN_CLIENT_SECRET: 's',
        LINKEDIN_PAGE_CLIENT_ID: 'p',
        LINKEDIN_PAGE_CLIENT_SECRET: 's',
      }),
    );
    const [profile, page] = report.filter((n) => n.slug === 'linkedin');
    expect([profile!.kind, page!.kind]).toEqual(['person', 'organization']);
    expect(byTopic(profile!, 'scopes').map((f) => f.message)).toEqual([
      'Add Sign In with LinkedIn using OpenID Connect to the LinkedIn profile app (its products): Herald asks for openid, profile and email.',
      'Add Share on LinkedIn to the LinkedIn profile app (its products): Herald asks for w_member_social.',
    ]);
    expect(byTopic(profile!, 'app-kind').map((f) => f.message)).toEqual([
      'The LinkedIn profile app of LINKEDIN_CLIENT_ID connects personal profiles: it needs Sign In with LinkedIn using OpenID Connect and Share on LinkedIn and no other product.',
    ]);
    expect(byTopic(page!, 'scopes').map((f) => f.message)).toEqual([
      'Add Community Management API to the LinkedIn Page app (its products): Herald asks for r_organization_social, w_organization_social and rw_organization_admin.',
    ]);
    expect(byTopic(page!, 'app-kind').map((f) => f.message)).toEqual([
      'The LinkedIn Page app of LINKEDIN_PAGE_CLIENT_ID connects organization Pages: it needs Community Management API and no other product.',
    ]);
    expect([...levels(profile!), ...levels(page!)]).not.toContain('problem');
  });

  it('calls one LinkedIn app asking for personal and Page scopes together a problem', () => {
    const config = prod({ LINKEDIN_CLIENT_ID: 'l', LINKEDIN_CLIENT_SECRET: 's' });
    // A LinkedIn module whose profile kind would ask for both sets of scopes on one app.
    const mixed: NetworkModule<LinkedInUrls> = {
      ...linkedin,
      connectKinds: linkedin.connectKinds?.slice(0, 1),
      createAdapter: (settings) => ({
        ...linkedin.createAdapter(settings),
        authorizeUrl: ({ redirectUri }) =>
          `https://www.linkedin.com/oauth/v2/authorization?redirect_uri=${encodeURIComponent(redirectUri)}&scope=openid%20w_member_social%20r_organization_social%20w_organization_social%20rw_organization_admin`,
      }),
    };
    const [li] = checkNetworkSetup(config, { modules: [mixed] });
    const [kind] = byTopic(li!, 'app-kind');
    expect(kind!.level).toBe('problem');
    expect(kind!.message).toMatch(
      /^Use separate LinkedIn profile apps: .*Community Management API only alone/,
    );
  });

  it('warns about TikTok’s unaudited mode and reminds to verify the media domain', () => {
    const env = {
      API_PUBLIC_URL: 'https://api.herald.example.com',
      TIKTOK_CLIENT_KEY: 'k',
      TIKTOK_CLIENT_SECRET: 's',
    };
    const audited = setupOf(checkNetworkSetup(prod(env)), 'tiktok');
    expect(byTopic(audited, 'audit').map((f) => f.level)).toEqual(['ok']);
    expect(byTopic(audited, 'domain')).toEqual([
      {
        level: 'warning',
        topic: 'domain',
        message:
          'Verify api.herald.example.com (URL prefix https://api.herald.example.com/media/) in the TikTok developer portal: TikTok pulls photo posts only from verified domains and refuses the others (url_ownership_unverified).',
      },
    ]);
    const unaudited = setupOf(
      checkNetworkSetup(prod({ ...env, TIKTOK_UNAUDITED: 'true' })),
      'tiktok',
    );
    expect(byTopic(unaudited, 'audit')).toEqual([
      {
        level: 'warning',
        topic: 'audit',
        message:
          'TikTok runs in unaudited mode (TIKTOK_UNAUDITED=true): posts go out visible to their creator only (SELF_ONLY), at most 5 people may post in 24 hours and their accounts must be private; unset TIKTOK_UNAUDITED once TikTok has audited the app.',
      },
    ]);
    expect(levels(unaudited)).not.toContain('problem');
  });

  describe('API versions', () => {
    const configured = (env: Record<string, string> = {}) =>
      prod({
        API_PUBLIC_URL: 'https://api.herald.example.com',
        LINKEDIN_CLIENT_ID: 'l',
        LINKEDIN_CLIENT_SECRET: 's',
        LINKEDIN_PAGE_CLIENT_ID: 'p',
        LINKEDIN_PAGE_CLIENT_SECRET: 's',
        META_APP_ID: 'm',
        META_APP_SECRET: 's',
        ...env,
      });
    const versionFindings = (env: Record<string, string>, now: string) => {
      const report = checkNetworkSetup(configured(env), { now: new Date(now) });
      return Object.fromEntries(
        report
          .filter((n) => byTopic(n, 'api-version').length > 0)
          .map((n) => [n.kind ?? n.slug, byTopic(n, 'api-version')]),
      );
    };

    it('checks the LinkedIn and Meta versions of every configured app, and only theirs', () => {
      const all = versionFindings({}, '2026-12-02T12:00:00Z');
      expect(Object.keys(all)).toEqual(['facebook', 'instagram', 'person', 'organization']);
      expect(all.person).toEqual([
        {
          level: 'ok',
          topic: 'api-version',
          message:
            'LinkedIn API version 202610 (LINKEDIN_API_VERSION) is served until 2027-10-15 (expected: not announced yet); Herald warns 90 days before.',
        },
      ]);
      expect(all.facebook).toEqual([
        {
          level: 'ok',
          topic: 'api-version',
          message:
            'Meta API version v24.0 (META_GRAPH_VERSION) is served until 2028-02-18; Herald warns 90 days before.',
        },
      ]);
      // Networks on their sandbox: the emulators refuse what the networks refuse.
      expect(
        checkNetworkSetup(dev(), { now: new Date('2030-01-01T00:00:00Z') }).flatMap((n) =>
          byTopic(n, 'api-version'),
        ),
      ).toEqual([]);
    });

    it('warns from 90 days before LinkedIn’s sunset and calls the sunset day a problem', () => {
      const env = { LINKEDIN_API_VERSION: '202601' }; // sunset 2027-01-15
      expect(versionFindings(env, '2026-10-16T23:59:59Z').person![0]!.level).toBe('ok');
      expect(versionFindings(env, '2026-10-17T00:00:00Z').person).toEqual([
        {
          level: 'warning',
          topic: 'api-version',
          message:
            'LinkedIn stops serving API version 202601 on 2027-01-15, in 90 day(s); after that it refuses every call naming it (426 NONEXISTENT_VERSION): set LINKEDIN_API_VERSION to 202610 and restart Herald before then.',
        },
      ]);
      expect(versionFindings(env, '2027-01-14T23:59:59Z').organization![0]!.level).toBe('warning');
      expect(versionFindings(env, '2027-01-15T00:00:00Z').organization).toEqual([
        {
          level: 'problem',
          topic: 'api-version',
          message:
            'LinkedIn stopped serving API version 202601 on 2027-01-15 and refuses every call naming it (426 NONEXISTENT_VERSION): set LINKEDIN_API_VERSION to 202610 and restart Herald.',
        },
      ]);
    });

    it('calls an ended Graph version a problem, though Meta silently serves it as another', () => {
      const env = { META_GRAPH_VERSION: 'v21.0' }; // ends 2027-01-21
      expect(versionFindings(env, '2026-10-22T23:59:59Z').instagram![0]!.level).toBe('ok');
      expect(versionFindings(env, '2026-10-23T00:00:00Z').instagram![0]).toMatchObject({
        level: 'warning',
        message: expect.stringMatching(
          /^Meta stops serving API version v21\.0 on 2027-01-21, in 90 day\(s\)/,
        ),
      });
      expect(versionFindings(env, '2027-01-21T00:00:00Z').facebook).toEqual([
        {
          level: 'problem',
          topic: 'api-version',
          message:
            'Meta stopped serving API version v21.0 on 2027-01-21 and answers the calls naming it as v22.0 without saying so, so publishing, comments and insights may change under Herald: set META_GRAPH_VERSION to v24.0 and restart Herald.',
        },
      ]);
    });

    it('calls a version Herald does not know a problem', () => {
      const found = versionFindings(
        { LINKEDIN_API_VERSION: '202612', META_GRAPH_VERSION: 'v99.0' },
        '2026-12-02T12:00:00Z',
      );
      expect(found.person![0]).toEqual({
        level: 'problem',
        topic: 'api-version',
        message:
          'LINKEDIN_API_VERSION is 202612, an API version Herald does not know for LinkedIn: set LINKEDIN_API_VERSION to 202610 and restart Herald (the versions Herald knows are listed in docs/networks.md#api-versions).',
      });
      expect(found.facebook![0]).toMatchObject({
        level: 'problem',
        message: expect.stringMatching(
          /^META_GRAPH_VERSION is v99\.0, an API version Herald does not know/,
        ),
      });
    });
  });
});
