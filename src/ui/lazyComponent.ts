import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A lazily loaded component that can also be loaded ahead of its first render. */
export type LazyComponent<Props> = LazyExoticComponent<ComponentType<Props>> & {
  /** Loads the module now; a first render after it has loaded does not suspend. */
  preload(): Promise<void>;
};

/**
 * A component of a module loaded when it first renders (React.lazy for a named export): code a page
 * needs later than its first frame — another page, an owner's dialog — stays out of what it loads
 * first. Render it inside a Suspense boundary.
 *
 * `preload` loads it ahead: the page the address names is loaded before the first render
 * (src/ui/main.tsx), so that render shows the page, not the boundary's fallback (issue 14: under
 * React the room page's first frame came up to 300 ms after its code). `lazy` takes a thenable: once
 * the module is in, the one it gets answers at once, so the first render does not suspend.
 */
export function lazyComponent<Props, Name extends string>(load: () => Promise<Record<Name, ComponentType<Props>>>, name: Name): LazyComponent<Props> {
  let loaded: { default: ComponentType<Props> } | undefined;
  const loading = (): Promise<{ default: ComponentType<Props> }> => load().then((module) => (loaded = { default: module[name] }));
  const answered = (module: { default: ComponentType<Props> }) => ({ then: (resolve: (value: typeof module) => void) => resolve(module) }) as unknown as Promise<typeof module>;
  const component = lazy(() => (loaded ? answered(loaded) : loading()));
  return Object.assign(component, { preload: () => loading().then(() => undefined) });
}
