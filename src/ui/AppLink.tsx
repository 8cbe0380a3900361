import type { ReactNode } from 'react';
import { navigate } from './route';

/** A link to a path within the app, followed without reloading the page (the shared session stays as it is). */
export function AppLink({ href, className, title, children }: { href: string; className?: string; title?: string; children: ReactNode }) {
  return (
    <a
      className={className}
      href={href}
      title={title}
      onClick={(event) => {
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
