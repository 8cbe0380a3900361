import { describe, expect, it } from 'vitest';
import { missingBrowserFeatures } from '../../src/main-thread/browserSupport';

describe('A browser without what Parley runs on is told so, not shown a blank page (beyond the spec: shared workers and Web Locks)', () => {
  const locks = { request: () => Promise.resolve() };

  it('a browser with both lacks nothing', () => {
    expect(missingBrowserFeatures({ SharedWorker: class {}, navigator: { locks } })).toEqual([]);
  });

  it('names each that is missing, in words for a person', () => {
    expect(missingBrowserFeatures({ navigator: { locks } })).toEqual(['shared workers']);
    expect(missingBrowserFeatures({ SharedWorker: class {}, navigator: {} })).toEqual(['Web Locks']);
    expect(missingBrowserFeatures({})).toEqual(['shared workers', 'Web Locks']);
  });
});
