import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { runDoctor } from './doctor-command.js';

const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://herald.example.com',
  API_PUBLIC_URL: 'https://herald.example.com/api',
  GOOGLE_CLIENT_ID: 'g',
  GOOGLE_CLIENT_SECRET: 'g',
  SESSION_SECRET: 'x'.repeat(32),
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
  BILLING_PROVIDER: 'none',
  X_CLIENT_ID: 'x-id',
  X_CLIENT_SECRET: 'x-secret',
};

async function doctor(env: Record<string, string>, args: string[], http?: typeof fetch) {
  let out = '';
  const code = await runDoctor(loadConfig(env), args, (text) => (out += text), http);
  return { code, out };
}

describe('herald doctor', () => {
  it('prints every network with its redirect URI and scopes, and exits 0 without problems', async () => {
    const { code, out } = await doctor(production, []);
    expect(code).toBe(0);
    expect(out).toContain('X: real credentials');
    expect(out).toContain('  redirect URI  https://herald.example.com/api/auth/x/callback');
    expect(out).toContain(
      '  scopes        tweet.read tweet.write users.read media.write offline.access dm.read dm.write tweet.moderate.write',
    );
    expect(out).toContain('TikTok: unavailable (no credentials)');
    expect(out).toMatch(/0 problem\(s\), \d+ warning\(s\)\.$/);
  });

  it('exits 1 when a finding is a problem', async () => {
    const { code, out } = await doctor({ ...production, TIKTOK_CLIENT_KEY: 'only-the-key' }, []);
    expect(code).toBe(1);
    expect(out).toContain(
      '  PROBLEM  Set TIKTOK_CLIENT_SECRET too: with only TIKTOK_CLIENT_KEY set, Herald ignores both and TikTok is unavailable.',
    );
  });

  it('exits 1 when LinkedIn or Meta no longer serves the configured API version', async () => {
    const env = {
      ...production,
      LINKEDIN_CLIENT_ID: 'l',
      LINKEDIN_CLIENT_SECRET: 's',
      META_APP_ID: 'm',
      META_APP_SECRET: 's',
    };
    expect((await doctor(env, [])).code).toBe(0);
    // Both ended in 2026: LinkedIn on October 15, Meta on September 24.
    const { code, out } = await doctor(
      { ...env, LINKEDIN_API_VERSION: '202510', META_GRAPH_VERSION: 'v20.0' },
      [],
    );
    expect(code).toBe(1);
    expect(out).toContain(
      '  PROBLEM  LinkedIn stopped serving API version 202510 on 2026-10-15 and refuses every call naming it (426 NONEXISTENT_VERSION): set LINKEDIN_API_VERSION to',
    );
    expect(out).toMatch(
      / {2}PROBLEM {2}Meta stopped serving API version v20\.0 on 2026-09-24 and answers the calls naming it as v\d+\.0 without saying so/,
    );
  });

  it('with --live asks the configured networks’ token endpoints, and only them', async () => {
    const asked: string[] = [];
    const http = (async (url: string) => {
      asked.push(String(url));
      return new Response(
        JSON.stringify({
          error: 'unauthorized_client',
          error_description: 'Missing valid authorization header',
        }),
        { status: 401, headers: { 'content-type': 'application/json' } },
      );
    }) as typeof fetch;
    const { code, out } = await doctor(production, ['--live'], http);
    expect(asked).toEqual(['https://api.x.com/2/oauth2/token']);
    expect(code).toBe(1);
    expect(out).toContain(
      '  PROBLEM  Check X_CLIENT_ID and X_CLIENT_SECRET: X does not accept them (“Missing valid authorization header”).',
    );
    expect(out).toContain('  ok       Nothing to probe: TikTok has no credentials.');
  });

  it('refuses an unknown option', async () => {
    const { code, out } = await doctor(production, ['--fix']);
    expect(code).toBe(2);
    expect(out).toMatch(/^Unknown option --fix\.\n\nUsage: herald doctor \[--live\]/);
  });

  it('runs as a command of the CLI', async () => {
    const serverDir = fileURLToPath(new URL('../../../', import.meta.url));
    const run = promisify(execFile);
    const result = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'doctor'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', ...production },
    }).catch((err: { code: number; stdout: string }) => err);
    expect('code' in result ? result.code : 0).toBe(0);
    expect(result.stdout).toContain(
      'Herald network setup (API_PUBLIC_URL https://herald.example.com/api)',
    );
    expect(result.stdout).toContain('LinkedIn Page: unavailable (no credentials)');
  });
});
