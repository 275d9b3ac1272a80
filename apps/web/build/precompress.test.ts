import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { precompressDir } from './precompress.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('writes brotli and gzip copies of text files that decode to the file', async () => {
  dir = mkdtempSync(join(tmpdir(), 'herald-precompress-'));
  mkdirSync(join(dir, 'assets'));
  const script = `console.log(${JSON.stringify('herald '.repeat(500))});`;
  writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
  writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>Herald</p>'.repeat(100)}`);
  writeFileSync(join(dir, 'tiny.css'), 'a{color:red}');
  writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096, 1));

  const result = await precompressDir(dir);

  expect(result.files).toBe(2);
  const path = join(dir, 'assets', 'index-abc.js');
  expect(brotliDecompressSync(readFileSync(`${path}.br`)).toString()).toBe(script);
  expect(gunzipSync(readFileSync(`${path}.gz`)).toString()).toBe(script);
  expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
  // Too small to gain anything, and already-compressed formats, stay as they are.
  expect(existsSync(join(dir, 'tiny.css.br'))).toBe(false);
  expect(existsSync(join(dir, 'logo.png.gz'))).toBe(false);
});
