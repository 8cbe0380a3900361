import { options } from 'preact';

/** The Prioritized Task Scheduling API, where the browser has it (not yet in TypeScript's DOM library). */
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<unknown>;
}

/**
 * Preact renders a state change in a task of its own (issue 14, long tasks while joining). By
 * default it renders in the microtasks of the task that changed the state: the session's patches
 * arrive as port messages, so each message's handling, the store's update and the whole render
 * made one task, and on a loaded machine that task outlasted 50 ms. As a task of its own — at the
 * scheduler's user-blocking priority, ahead of the messages queued behind it — the render still
 * comes next, and neither task is as long as the two were. Where there is no `scheduler`, a message
 * on a channel of its own is a task without `setTimeout`'s clamping of nested timers.
 */
export function renderInTasksOfTheirOwn(): void {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (scheduler) {
    options.debounceRendering = (render) => void scheduler.postTask(render, { priority: 'user-blocking' });
    return;
  }
  const channel = new MessageChannel();
  const renders: Array<() => void> = [];
  channel.port1.onmessage = () => renders.shift()?.();
  options.debounceRendering = (render) => {
    renders.push(render);
    channel.port2.postMessage(undefined);
  };
}
