import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Thread boundaries (ARCHITECTURE.md "Threads and folders"). Our imports are relative paths, so
 * each guarded folder refuses the relative paths that reach a folder it must not use, type-only
 * imports included: the threads share types through src/protocol alone.
 */
function boundary(folder, refused, why, ...alsoRefused) {
  const pattern = (regex, reason) => ({ regex, caseSensitive: true, message: `Thread boundary: ${reason} (see ARCHITECTURE.md).` });
  return {
    files: [`${folder}/**/*.{ts,tsx,js,mjs}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [pattern(refused, why), ...alsoRefused.map(([regex, reason]) => pattern(regex, reason))] }],
    },
  };
}

/** A relative path through one of `folders`. */
function through(...folders) {
  return `^\\.{1,2}/(.*/)?(${folders.join('|')})(/|$)`;
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // StanzaJS is extended by merging into its `Stanzas` namespace (declare module 'stanza').
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // src/common is flat: a path that leaves it reaches something of ours.
  boundary('src/common', '^\\.\\./', 'src/common imports nothing of ours'),
  boundary('src/protocol', through('common', 'main-thread', 'shared-worker', 'worker', 'ui', 'server', 'tests', 'scripts'), 'src/protocol imports nothing of ours'),
  boundary('src/shared-worker', through('main-thread', 'worker', 'ui', 'server'), 'the shared worker reaches the tabs only through src/protocol'),
  boundary('src/main-thread', through('shared-worker', 'worker', 'ui', 'server'), 'a tab reaches the shared worker and the analysis worker only through src/protocol'),
  boundary('src/worker', through('main-thread', 'shared-worker', 'ui', 'server'), 'the analysis worker imports only src/protocol and src/common'),
  boundary('src/ui', through('shared-worker', 'worker', 'server'), 'the UI reaches the session only through the tab (src/main-thread)', [
    '^(comlink|stanza)(/|$)',
    "the UI calls the tab's actions, never Comlink or the XMPP client",
  ]),
  boundary('server', through('src/main-thread', 'src/shared-worker', 'src/worker', 'src/ui'), 'the server shares only src/protocol and src/common with the browser'),
);
