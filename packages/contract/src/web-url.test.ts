import { describe, expect, it } from 'vitest';
import { WEB_URL_MAX, WebUrlSchema, webUrlInput, webUrlOrNull } from './web-url.js';

describe('web addresses', () => {
  it('keeps absolute http and https addresses as they are', () => {
    for (const url of [
      'https://example.test',
      'http://example.test:8080/a/b?c=d#e',
      'https://www.tiktok.com/@brand/video/123',
      'HTTPS://Example.test/Path',
      'https://scontent.example.test/v/t1.0-9/1_n.jpg?_nc_cat=1&oh=ab',
    ]) {
      expect(webUrlOrNull(url)).toBe(url);
      expect(WebUrlSchema.safeParse(url).success).toBe(true);
    }
  });

  it('drops every other scheme, credentials, control characters and over-long addresses', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/svg+xml;base64,PHN2Zy8+',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x',
      '/relative/path',
      'https://',
      'https:evil.example',
      ' https://example.test',
      'https://example.test/\u0000',
      'https://example.test/a b',
      'https://x.com@evil.example/',
      'https://user:pass@example.test/',
      'https://x.com\\@evil.example/',
      `https://example.test/${'a'.repeat(WEB_URL_MAX)}`,
      '',
      null,
      undefined,
      42,
    ]) {
      expect(webUrlOrNull(url), JSON.stringify(url)).toBeNull();
      expect(WebUrlSchema.safeParse(url).success, JSON.stringify(url)).toBe(false);
    }
  });

  it('refuses a request address that is not a web one with the given sentence', () => {
    const schema = webUrlInput('Give a web address.');
    expect(schema.safeParse('https://example.test/a.png').success).toBe(true);
    const refused = schema.safeParse('javascript:alert(1)');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('Give a web address.');
  });
});
