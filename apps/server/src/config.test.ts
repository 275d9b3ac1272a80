import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults for the embedded shape', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      dataDir: './.herald',
      apiBasePath: '/api',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
    });
    expect(c.identity.kind).toBe('development');
    expect(c.apiPublicUrl).toBe('http://localhost:3000/api');
    expect(c.secureCookies).toBe(false);
  });

  it('sends LinkedIn and Meta the API versions of LINKEDIN_API_VERSION and META_GRAPH_VERSION, or Herald’s defaults', () => {
    expect(loadConfig({}).apiVersions).toEqual({ linkedin: '202610', meta: 'v24.0' });
    expect(
      loadConfig({ LINKEDIN_API_VERSION: ' 202611 ', META_GRAPH_VERSION: 'v25.0' }).apiVersions,
    ).toEqual({ linkedin: '202611', meta: 'v25.0' });
    expect(() => loadConfig({ LINKEDIN_API_VERSION: '2026-10' })).toThrow(
      'LINKEDIN_API_VERSION: must be a LinkedIn API version, a year and month such as 202610.',
    );
    expect(() => loadConfig({ META_GRAPH_VERSION: '24' })).toThrow(
      'META_GRAPH_VERSION: must be a Graph API version such as v24.0.',
    );
  });

  it('chooses Google, then a generic issuer, from the credentials given', () => {
    expect(
      loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).identity,
    ).toMatchObject({ kind: 'google', issuer: 'https://accounts.google.com' });
    expect(
      loadConfig({
        OIDC_ISSUER_URL: 'https://id.acme.test/realm',
        OIDC_CLIENT_ID: 'c',
        OIDC_CLIENT_SECRET: 's',
      }).identity,
    ).toMatchObject({ kind: 'oidc', label: 'id.acme.test' });
  });

  it('refuses the development sign-in and a missing secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/GOOGLE_CLIENT_ID/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'i', GOOGLE_CLIENT_SECRET: 's' }),
    ).toThrow(/SESSION_SECRET/);
  });

  it('requires a 32-byte TOKEN_ENCRYPTION_KEY in production, before anything starts', () => {
    const production = {
      NODE_ENV: 'production',
      GOOGLE_CLIENT_ID: 'i',
      GOOGLE_CLIENT_SECRET: 's',
      SESSION_SECRET: 'x'.repeat(32),
      BILLING_PROVIDER: 'none',
    };
    expect(() => loadConfig(production)).toThrow(
      /In production set TOKEN_ENCRYPTION_KEY .*the same in every process/,
    );
    const key = Buffer.alloc(32, 2).toString('base64');
    expect(loadConfig({ ...production, TOKEN_ENCRYPTION_KEY: key }).tokenEncryptionKey).toBe(key);
    expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(
      /TOKEN_ENCRYPTION_KEY must be 32 bytes encoded in base64/,
    );
    expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY_PREVIOUS: 'c2hvcnQ=' })).toThrow(
      /TOKEN_ENCRYPTION_KEY_PREVIOUS must be 32 bytes/,
    );
  });

  it('believes X-Forwarded-For only from the proxies it is told to trust', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe(
      '10.0.0.0/8, 127.0.0.1',
    );
    const hops = loadConfig({ TRUST_PROXY: '2' }).trustProxy as (a: string, h: number) => boolean;
    expect([hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
  });

  it('makes free billing in production an explicit choice', () => {
    const production = {
      NODE_ENV: 'production',
      GOOGLE_CLIENT_ID: 'i',
      GOOGLE_CLIENT_SECRET: 's',
      SESSION_SECRET: 'x'.repeat(32),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    };
    expect(() => loadConfig(production)).toThrow(/BILLING_PROVIDER=none/);
    expect(loadConfig({ ...production, BILLING_PROVIDER: 'none' }).stripe).toBeNull();
    expect(
      loadConfig({ ...production, STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' }).stripe,
    ).toMatchObject({ secretKey: 'sk' });
    expect(() => loadConfig({ BILLING_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(loadConfig({}).stripe).toBeNull();
  });

  it('uses secure cookies behind an https PUBLIC_URL and lower-cases ADMIN_EMAILS', () => {
    const c = loadConfig({
      PUBLIC_URL: 'https://herald.example.com/',
      ADMIN_EMAILS: ' Ops@Example.com, b@x.io ,',
    });
    expect(c.secureCookies).toBe(true);
    expect(c.publicUrl).toBe('https://herald.example.com');
    expect(c.adminEmails).toEqual(['ops@example.com', 'b@x.io']);
  });

  it('keeps metrics off without METRICS_TOKEN and refuses a guessable one', () => {
    expect(loadConfig({}).metrics).toBeNull();
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ token, port: 9464 });
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: '9100' }).metrics?.port).toBe(9100);
    for (const bad of ['short', `${'a'.repeat(20)} ${'b'.repeat(20)}`]) {
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(/METRICS_TOKEN must be at least 32/);
    }
  });

  it('explains a bad value in one sentence naming the variable', () => {
    try {
      loadConfig({ PORT: 'eighty' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/^Invalid configuration\. PORT: /);
    }
  });

  it('reads any network’s credentials by the names its module gives, only as a whole pair', () => {
    const c = loadConfig({
      ACME_CLIENT_ID: ' id ',
      ACME_CLIENT_SECRET: 'secret',
      OTHER_APP_ID: 'half',
      BLANK_CLIENT_KEY: '  ',
      BLANK_CLIENT_SECRET: 's',
    });
    const acme = { clientId: 'ACME_CLIENT_ID', clientSecret: 'ACME_CLIENT_SECRET' };
    expect(c.networkEnv.credentials(acme)).toEqual({ clientId: 'id', clientSecret: 'secret' });
    const other = { clientId: 'OTHER_APP_ID', clientSecret: 'OTHER_APP_SECRET' };
    expect(c.networkEnv.credentials(other)).toBeNull();
    expect(c.networkEnv.credentialsSet(other)).toEqual({ clientId: true, clientSecret: false });
    const blank = { clientId: 'BLANK_CLIENT_KEY', clientSecret: 'BLANK_CLIENT_SECRET' };
    expect(c.networkEnv.credentials(blank)).toBeNull();
    expect(c.networkEnv.credentialsSet(blank)).toEqual({ clientId: false, clientSecret: true });
    // Only variables of a network shape were read and checked; Herald's own are not lent out.
    for (const clientId of ['ACME_TOKEN', 'GOOGLE_CLIENT_ID'])
      expect(() => c.networkEnv.credentials({ ...acme, clientId })).toThrow(
        `${clientId} is not the name of a network variable`,
      );
  });

  it('checks the networks’ unaudited flags, and every network’s inbox poll minutes, known to Herald or not', () => {
    const c = loadConfig({
      TIKTOK_UNAUDITED: 'yes',
      X_UNAUDITED: 'false',
      // Not a network's: a host's own variable, whatever its value, is left alone.
      BUILD_UNAUDITED: 'maybe',
      INBOX_POLL_MINUTES_ACME: ' 30 ',
      INBOX_POLL_MINUTES_OTHER: '',
    });
    expect(c.networkEnv.unaudited('TIKTOK_UNAUDITED')).toBe(true);
    expect(c.networkEnv.unaudited('X_UNAUDITED')).toBe(false);
    expect(c.networkEnv.unaudited('THREADS_UNAUDITED')).toBe(false);
    expect(() => c.networkEnv.unaudited('BUILD_UNAUDITED')).toThrow(/not the name of a network/);
    expect(() => c.networkEnv.unaudited('ACME_CLIENT_ID')).toThrow(/not the name of a network/);
    expect(c.inbox.pollMinutes).toEqual({ acme: 30 });
    expect(() => loadConfig({ TIKTOK_UNAUDITED: 'maybe' })).toThrow(
      'Invalid configuration. TIKTOK_UNAUDITED: Invalid option: expected one of',
    );
    expect(() => loadConfig({ INBOX_POLL_MINUTES_ACME: '1.5' })).toThrow(
      'Invalid configuration. INBOX_POLL_MINUTES_ACME: Poll intervals are whole minutes.',
    );
    expect(() => loadConfig({ INBOX_POLL_MINUTES_ACME: '0' })).toThrow(
      'INBOX_POLL_MINUTES_ACME: Too small: expected number to be >=1',
    );
    // Said beside the other bad values, as a variable of Herald's own would be.
    expect(() => loadConfig({ PORT: 'eighty', INBOX_POLL_MINUTES_ACME: 'soon' })).toThrow(
      'PORT: Invalid input: expected number, received NaN INBOX_POLL_MINUTES_ACME: Invalid input: expected number, received NaN',
    );
  });

  it('reads BLUESKY_OAUTH_PRIVATE_KEY as an ES256 private JWK, refusing anything else by name', () => {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'jwk',
    });
    const key = JSON.stringify(jwk);
    const c = loadConfig({ NODE_ENV: 'test', BLUESKY_OAUTH_PRIVATE_KEY: ` ${key} ` });
    expect(c.networkEnv.oauthKey('BLUESKY_OAUTH_PRIVATE_KEY')).toBe(key);
    expect(loadConfig({ NODE_ENV: 'test' }).networkEnv.oauthKey('BLUESKY_OAUTH_PRIVATE_KEY')).toBe(
      undefined,
    );
    const refused = (value: string) => () =>
      loadConfig({ NODE_ENV: 'test', BLUESKY_OAUTH_PRIVATE_KEY: value });
    expect(refused('herald-bluesky-key')).toThrow(
      /BLUESKY_OAUTH_PRIVATE_KEY: must be an ES256 private key as a JSON Web Key .*: it is not JSON\./,
    );
    const { d: _d, ...publicOnly } = jwk;
    expect(refused(JSON.stringify(publicOnly))).toThrow(
      /BLUESKY_OAUTH_PRIVATE_KEY: .*it needs x, y and the private member d\./,
    );
    expect(refused(JSON.stringify({ ...jwk, crv: 'P-384' }))).toThrow(
      /its kty and crv are EC and P-384, not EC and P-256\./,
    );
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'jwk',
    });
    expect(refused(JSON.stringify({ ...jwk, x: other.x, y: other.y }))).toThrow(
      /BLUESKY_OAUTH_PRIVATE_KEY: .*(its x and y are not the public half of its d|do not make a P-256 key)/,
    );
  });

  it('serves the API at the root of its own host when API_BASE_PATH is /', () => {
    expect(loadConfig({ API_BASE_PATH: '/' }).apiBasePath).toBe('');
  });

  it('stores media in a local folder under the data dir unless S3 is configured', () => {
    const c = loadConfig({ HERALD_DATA_DIR: '/srv/herald' });
    expect(c.media).toEqual({
      storage: { driver: 'local', dir: '/srv/herald/media' },
      tempDir: '/srv/herald/tmp',
      urlTtlSeconds: 3600,
      maxFileBytes: 5 * 1024 ** 3,
      ffmpegPath: 'ffmpeg',
      ffprobePath: 'ffprobe',
    });
    expect(loadConfig({ MEDIA_DIR: '/mnt/media' }).media.storage).toEqual({
      driver: 'local',
      dir: '/mnt/media',
    });
  });

  it('switches media to S3 when a bucket is named, with credentials and path style', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'herald-media',
        S3_ENDPOINT: 'http://minio.internal:9000',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).media.storage,
    ).toEqual({
      driver: 's3',
      bucket: 'herald-media',
      region: 'us-east-1',
      endpoint: 'http://minio.internal:9000',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(loadConfig({ S3_BUCKET: 'b', MEDIA_STORAGE: 'local' }).media.storage.driver).toBe(
      'local',
    );
    expect(loadConfig({ S3_BUCKET: 'b', S3_REGION: 'eu-west-3' }).media.storage).toMatchObject({
      region: 'eu-west-3',
      credentials: null,
      forcePathStyle: false,
    });
  });

  it('refuses contradictory or out-of-range media settings', () => {
    expect(() => loadConfig({ MEDIA_STORAGE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ MEDIA_STORAGE: 'ftp' })).toThrow(/MEDIA_STORAGE/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ MEDIA_URL_TTL_SECONDS: '5' })).toThrow(/MEDIA_URL_TTL_SECONDS/);
    expect(
      loadConfig({ MEDIA_URL_TTL_SECONDS: '900', MEDIA_MAX_FILE_BYTES: '1048576' }).media,
    ).toMatchObject({ urlTtlSeconds: 900, maxFileBytes: 1048576 });
  });

  it('pushes Google Business Profile reviews only with the topic and the push subscription’s service account, checked at start', () => {
    expect(loadConfig({}).inbox.googleBusinessPush).toBeNull();
    const topic = 'projects/acme-herald/topics/business-reviews';
    const sa = 'herald-push@acme-herald.iam.gserviceaccount.com';
    expect(
      loadConfig({
        GOOGLE_BUSINESS_PUBSUB_TOPIC: topic,
        GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: sa,
        API_PUBLIC_URL: 'https://api.herald.example',
      }).inbox.googleBusinessPush,
    ).toEqual({
      topic,
      serviceAccountEmail: sa,
      // Pub/Sub's own default audience: the push endpoint's URL.
      audience: 'https://api.herald.example/webhooks/googlebusiness',
    });
    expect(
      loadConfig({
        GOOGLE_BUSINESS_PUBSUB_TOPIC: topic,
        GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: sa,
        GOOGLE_BUSINESS_PUSH_AUDIENCE: 'herald-reviews',
      }).inbox.googleBusinessPush?.audience,
    ).toBe('herald-reviews');
    expect(() => loadConfig({ GOOGLE_BUSINESS_PUBSUB_TOPIC: topic })).toThrow(
      /GOOGLE_BUSINESS_PUBSUB_TOPIC is set, so GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT must name/,
    );
    expect(() =>
      loadConfig({
        GOOGLE_BUSINESS_PUBSUB_TOPIC: 'business-reviews',
        GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: sa,
      }),
    ).toThrow(/GOOGLE_BUSINESS_PUBSUB_TOPIC must be a Pub\/Sub topic's full name/);
    expect(() =>
      loadConfig({
        GOOGLE_BUSINESS_PUBSUB_TOPIC: topic,
        GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: 'herald',
      }),
    ).toThrow(/GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT must be a service account's e-mail address/);
    expect(() => loadConfig({ GOOGLE_BUSINESS_PUSH_AUDIENCE: 'herald-reviews' })).toThrow(
      /GOOGLE_BUSINESS_PUSH_AUDIENCE is read only with GOOGLE_BUSINESS_PUBSUB_TOPIC/,
    );
  });
});
