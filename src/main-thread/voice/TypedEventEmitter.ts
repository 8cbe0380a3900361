type Listener<Event> = (event: Event) => void;

/** Listeners keyed by event name, each typed by its event's payload. */
export class TypedEventEmitter<Events extends object> {
  private readonly listeners: { [Type in keyof Events]?: Set<Listener<Events[Type]>> } = {};

  /** Returns the function that removes the listener again. */
  on<Type extends keyof Events>(type: Type, listener: Listener<Events[Type]>): () => void {
    const listeners = (this.listeners[type] ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  protected emit<Type extends keyof Events>(type: Type, event: Events[Type]): void {
    for (const listener of [...(this.listeners[type] ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        // One failing listener must not keep the others from hearing the event.
        reportError(error);
      }
    }
  }
}
