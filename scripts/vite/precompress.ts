import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** What a browser fetches of the build: its scripts, styles and page (a source map only devtools asks for). */
const SERVED = /\.(js|css|html|svg|json|webmanifest)$/;
/** Smaller than this, a compressed copy saves less than its headers cost; the gateway serves the file as it is. */
export const WORTH_COMPRESSING_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every file of the build that a browser
 * fetches, once, at build time: the gateway serves the one the browser accepts
 * (`@fastify/static`'s `preCompressed`), at the strongest settings, with no work per request. The
 * shared worker's session code is 400 KB as built and about 113 KB gzipped.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'parley:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => SERVED.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          if (content.length < WORTH_COMPRESSING_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}
