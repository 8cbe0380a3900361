/**
 * A CommonJS module's default export (its `exports.default`, as StanzaJS's modules have it): Vitest
 * hands it over as the import's default, Vite's build (the package is an ES module) and Node's own
 * ESM loader the whole `exports`, which then holds it under `default`.
 */
export function commonJsDefault<T>(imported: T | { default: T }): T {
  return typeof imported === 'object' && imported !== null && 'default' in imported ? imported.default : (imported as T);
}
