import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chromium 136 and later): compile every function of this script as it loads. */
export const COMPILE_ALL_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Issue 14, long tasks while joining: V8 compiles a function the first time it is called, on the
 * thread that calls it. Traced in a four-person join, the newcomer's main thread spent 86–115 ms
 * compiling the page's code that way, inside the renders and message handlers of the join; with
 * this hint on every page script, 20–25 ms, the rest done by the browser's background threads while
 * the scripts stream in. Each chunk of the page loads when its view or the call needs it, so most of
 * its functions run as soon as it has loaded. The workers' scripts (the session's shared worker and
 * the voice analysis, built by `worker.plugins`, which this plugin is not in) keep V8's lazy
 * compiling: a worker compiles its scripts on its own thread, so there the hint only moves the same
 * work, still on the login's way, and measured it gained nothing (ARCHITECTURE.md, "What the join
 * asks of each thread").
 *
 * The hint goes first in each chunk once the bundle is final, and the chunk's source map moves down
 * the one line it takes.
 */
export function compileHints(): Plugin {
  return {
    name: 'parley:compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue;
          output.code = `${COMPILE_ALL_HINT}\n${output.code}`;
          // The map is an asset of the bundle by now: the file written is that asset, not the chunk's `map`.
          const map = bundle[`${output.fileName}.map`];
          if (map?.type !== 'asset') continue;
          const content = JSON.parse(String(map.source)) as { mappings: string };
          map.source = JSON.stringify({ ...content, mappings: `;${content.mappings}` });
        }
      },
    },
  };
}
