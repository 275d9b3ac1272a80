import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth compressing: text formats. Images and fonts are compressed already. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/;
/** Below this, headers and framing outweigh what compression saves. */
const MIN_BYTES = 1024;

export interface PrecompressResult {
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip level 9) next to every text file
 * of at least 1 KB under `dir`. The all-in-one server sends them to browsers that accept the
 * encoding (@fastify/static `preCompressed`), so no request spends CPU on compression.
 * A variant that would not be smaller than the file is not written.
 */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, raw: 0, gzip: 0, brotli: 0 };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  await Promise.all(
    entries
      .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        const body = await readFile(path);
        if (body.length < MIN_BYTES) return;
        const [br, gz] = await Promise.all([
          brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
          gzipAsync(body, { level: 9 }),
        ]);
        result.files += 1;
        result.raw += body.length;
        if (br.length < body.length) {
          await writeFile(`${path}.br`, br);
          result.brotli += br.length;
        }
        if (gz.length < body.length) {
          await writeFile(`${path}.gz`, gz);
          result.gzip += gz.length;
        }
      }),
  );
  return result;
}

/** Vite plugin: precompresses the build output once everything (public files too) is written. */
export function precompress(): Plugin {
  let outDir = '';
  let log: (message: string) => void = () => {};
  return {
    name: 'herald:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      log = (message) => config.logger.info(message);
    },
    async closeBundle() {
      const r = await precompressDir(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      log(
        `precompressed ${r.files} files: ${kb(r.raw)} → ${kb(r.gzip)} gzip, ${kb(r.brotli)} brotli`,
      );
    },
  };
}
