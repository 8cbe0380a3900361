import { options } from 'preact';

/** The Prioritized Task Scheduling API, where the browser has it (not yet in TypeScript's DOM library). */
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<unknown>;
}

/** The person's own acts: their handlers must see the state of every input before them. */
const DISCRETE_EVENTS = ['keydown', 'click', 'submit'] as const;

/**
 * Preact renders a state change in a task of its own (issue 14, long tasks while joining). By
 * default it renders in the microtasks of the task that changed the state: the session's patches
 * arrive as port messages, so each message's handling, the store's update and the whole render
 * made one task, and on a loaded machine that task outlasted 50 ms. As a task of its own — at the
 * scheduler's user-blocking priority, ahead of the messages queued behind it — the render still
 * comes next, and neither task is as long as the two were. Where there is no `scheduler`, a message
 * on a channel of its own is a task without `setTimeout`'s clamping of nested timers.
 *
 * A render still waiting when the person presses a key, clicks or submits runs first, in the
 * window's capture of that event: a component's handlers are the ones its last render made, so an
 * Enter pressed before the last keystroke's render would otherwise send the draft without it.
 */
export function renderInTasksOfTheirOwn(): void {
  let waiting: (() => void) | undefined;
  const renderWaiting = () => {
    const render = waiting;
    waiting = undefined;
    render?.();
  };
  for (const type of DISCRETE_EVENTS) window.addEventListener(type, renderWaiting, { capture: true });

  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  let post: () => void;
  if (scheduler) {
    post = () => void scheduler.postTask(renderWaiting, { priority: 'user-blocking' });
  } else {
    const channel = new MessageChannel();
    channel.port1.onmessage = renderWaiting;
    post = () => channel.port2.postMessage(undefined);
  }
  options.debounceRendering = (render) => {
    waiting = render;
    post();
  };
}
