/** Creates the observer of tile visibility; IntersectionObserver in a tab. */
export type VisibilityObserverFactory = (onChange: (entries: ReadonlyArray<{ target: Element; isIntersecting: boolean }>) => void) => {
  observe(target: Element): void;
  unobserve(target: Element): void;
  disconnect(): void;
};

export const intersectionObserverFactory: VisibilityObserverFactory = (onChange) => new IntersectionObserver((entries) => onChange(entries));

/**
 * Remote video quality on the mesh (PROTOCOL.md simulcast profile): a remote video whose element
 * is out of sight asks its sender for `off`, which pauses that sender's video to us alone; one in
 * sight asks for `high`. Visibility is the element's intersection with the viewport.
 */
export class RemoteVideoQuality {
  private observer: ReturnType<VisibilityObserverFactory> | undefined;
  private readonly itemOf = new Map<Element, string>();

  constructor(
    private readonly onVisibility: (itemId: string, visible: boolean) => void,
    private readonly createObserver: VisibilityObserverFactory | undefined,
  ) {}

  observe(itemId: string, element: Element): () => void {
    this.observer ??= this.createObserver?.((entries) => {
      for (const entry of entries) {
        const id = this.itemOf.get(entry.target);
        if (id !== undefined) this.onVisibility(id, entry.isIntersecting);
      }
    });
    if (!this.observer) {
      // No way to tell: show it at its best.
      this.onVisibility(itemId, true);
      return () => undefined;
    }
    this.itemOf.set(element, itemId);
    this.observer.observe(element);
    return () => {
      this.itemOf.delete(element);
      this.observer?.unobserve(element);
    };
  }

  dispose(): void {
    this.observer?.disconnect();
    this.observer = undefined;
    this.itemOf.clear();
  }
}
