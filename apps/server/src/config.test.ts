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

  it('uses secure cookies behind an https PUBLIC_URL and lower-cases ADMIN_EMAILS', () => {
    const c = loadConfig({
      PUBLIC_URL: 'https://herald.example.com/',
      ADMIN_EMAILS: ' Ops@Example.com, b@x.io ,',
    });
    expect(c.secureCookies).toBe(true);
    expect(c.publicUrl).toBe('https://herald.example.com');
    expect(c.adminEmails).toEqual(['ops@example.com', 'b@x.io']);
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

  it('serves the API at the root of its own host when API_BASE_PATH is /', () => {
    expect(loadConfig({ API_BASE_PATH: '/' }).apiBasePath).toBe('');
  });
});
