import { lazy, type ComponentType } from 'react';

/**
 * A component of a module loaded when it first renders (React.lazy for a named export): code a page
 * needs later than its first frame — another page, an owner's dialog — stays out of what it loads
 * first. Render it inside a Suspense boundary.
 */
export function lazyComponent<Props, Name extends string>(load: () => Promise<Record<Name, ComponentType<Props>>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
