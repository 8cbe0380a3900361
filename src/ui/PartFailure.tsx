import { Component, type ReactNode } from 'react';
import { consoleLogger } from '../common/logger';
import { errorMessage } from '../common/errorMessage';

const log = consoleLogger('[parley ui]');

interface PartFailureProps {
  /** The part of the page as the person knows it: "The call", "The chat", "This page". */
  part: string;
  /** The id the part's own region carries (a skip link's target), kept by the notice that replaces it. */
  id?: string;
  children: ReactNode;
}

/**
 * An error boundary around one part of the page: should that part fail to render (a fault in its
 * code), it is replaced by a notice that says so in plain words and offers Reload, while the rest of
 * the page goes on working; without one the part would vanish without a word.
 */
export class PartFailure extends Component<PartFailureProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    log.error(`${this.props.part} stopped working: ${errorMessage(error)}`);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div id={this.props.id} className="banner banner-error part-failure" role="alert">
        <span>
          {this.props.part} stopped working. <span className="detail">Reload the page to carry on.</span>
        </span>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
