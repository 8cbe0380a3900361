import { listInWords } from '../common/listInWords';

/** Every page, in a browser that lacks what Parley needs (`missingBrowserFeatures`): what is missing, and where to open the page instead. */
export function BrowserUnsupported({ missing }: { missing: readonly string[] }) {
  return (
    <main className="home">
      <header className="home-header">
        <h1 className="brand">Parley</h1>
      </header>
      <section className="card home-form" role="alert">
        <h2>Parley can't run in this browser</h2>
        <p>
          It needs {listInWords(missing)}, which this browser does not have. Open this page in a current version of Chrome, Edge, Firefox or Safari.
        </p>
        <p className="muted">
          This page's address: {window.location.href}
        </p>
      </section>
    </main>
  );
}
