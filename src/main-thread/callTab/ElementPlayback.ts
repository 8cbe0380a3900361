/**
 * Plays media elements and remembers those the browser's autoplay policy held back (play()
 * rejected with NotAllowedError): the UI then offers "Request Media", whose click — a user
 * gesture — plays them again.
 */
export class ElementPlayback {
  private readonly blocked = new Set<HTMLMediaElement>();
  /** Elements played and not forgotten: a refusal that comes after its element went is not held back. */
  private readonly attached = new Set<HTMLMediaElement>();

  constructor(private readonly onBlockedChange: (blocked: boolean) => void) {}

  play(element: HTMLMediaElement): void {
    this.attached.add(element);
    element.play().then(
      () => this.unblock(element),
      (error: unknown) => {
        // AbortError: the element got another source or none before playing; nothing to retry.
        if (error instanceof DOMException && error.name === 'NotAllowedError' && this.attached.has(element)) this.block(element);
      },
    );
  }

  /** The element is going away. */
  forget(element: HTMLMediaElement): void {
    this.attached.delete(element);
    this.unblock(element);
  }

  /** Plays every held-back element again; call it from a user gesture. */
  resume(): void {
    for (const element of [...this.blocked]) this.play(element);
  }

  private block(element: HTMLMediaElement): void {
    const before = this.blocked.size;
    this.blocked.add(element);
    if (before === 0) this.onBlockedChange(true);
  }

  private unblock(element: HTMLMediaElement): void {
    if (this.blocked.delete(element) && this.blocked.size === 0) this.onBlockedChange(false);
  }
}
