import type { createStore } from 'jotai';
import type { Logger } from '../../common/logger';
import type { Call } from '../call/Call';
import { CallUnsupportedError } from '../call/errors';
import type { VideoSendLoad } from '../media';
import { callAtomFamily } from '../sessionAtoms';
import type { CallPhase } from './callTabAtoms';
import type { CallTabCommands } from './sessionCommands';
import { errorMessage } from '../../common/errorMessage';

type JotaiStore = ReturnType<typeof createStore>;

/** What the call tab needs of a call: Call in a tab, a fake in unit tests. */
export type CallLike = Pick<Call, 'start' | 'close' | 'setTileNeed' | 'setFrameSize' | 'on' | 'takeOver'>;

/** What the seat changes in the call tab around it. */
export interface CallSeatHost {
  setPhase(phase: CallPhase): void;
  setProblem(problem: string | undefined): void;
  /** This tab keeps no local media (another tab sends yours, or the call ended). */
  removeLocalMedia(): void;
  /** The call is taken over (from another tab, or after a reload): your media starts as the call record keeps it. Before `startLocalMedia`. */
  resumeOwnMedia(): void;
  /** In the call: your camera and microphone start for it. */
  startLocalMedia(): Promise<void>;
  /** What the call sends changed: the capture follows it. */
  followSendLoad(load: VideoSendLoad): void;
  /** This tab runs the call (or no longer does): it tells the room your own media facts. */
  setReporting(reporting: boolean): void;
  /** A session with this person ended with an error (the Call's `sessionFailed`); `bringingTheirMedia`: one they started. */
  sessionFailed(peerAddress: string, bringingTheirMedia: boolean): void;
  /** The video we send loses much on its way (the Call's `sendLoss`), or no longer does; false once this tab no longer runs the call. */
  setSendingPoorly(losing: boolean): void;
}

export interface CallSeatOptions {
  readonly roomAddress: string;
  readonly store: JotaiStore;
  readonly commands: CallTabCommands;
  readonly logger: Logger;
  /** A Call for this room (the config's ICE servers are read when it is made). */
  readonly createCall: () => CallLike;
  readonly host: CallSeatHost;
}


/**
 * This tab's seat in the room's call: "Join call" takes the call's Web Lock through the Call,
 * joins the call and enters it. The call record is the shared state of record: when it says
 * joined without this tab having asked (another tab of yours joined, or this tab was reloaded in
 * the call), this tab waits for the lock — showing that the call runs elsewhere while another tab
 * holds it — and runs the call once it has it. When the record says the call was left, every tab
 * lets go of it and its media.
 */
export class CallSeat {
  private call: CallLike | undefined;
  /** A join or leave of ours the call record does not show yet: until it does, the record is not followed. */
  private expectedJoined: boolean | undefined;
  private disposed = false;

  constructor(private readonly options: CallSeatOptions) {}

  /** The Call this tab runs (or is taking), if any. */
  get current(): CallLike | undefined {
    return this.call;
  }

  /**
   * "Join call": join the call while its lock is asked for, then enter it. The lock's grant is a
   * round trip to the browser that the call presence need not wait for (issue 14, the join path):
   * should someone offer before this tab has claimed the call, the session holds the offer for the
   * claim (UnclaimedCallRequests). `lockAnswered` is told once the lock has answered: the call runs
   * here (its claim sent), waits for another tab, or cannot run.
   */
  async join(lockAnswered: () => void = () => undefined): Promise<void> {
    const { host } = this.options;
    host.setProblem(undefined);
    this.expectedJoined = true;
    const call = this.open();
    const joining = this.sendJoin();
    let waitedForAnotherTab = false;
    const started = await this.run(call, () => {
      waitedForAnotherTab = true;
      lockAnswered();
    });
    lockAnswered();
    let joined = await joining;
    // Another tab of yours ran the call while this one waited for its lock: it may have hung up
    // since, leaving the call this tab's join found joined. The person asked to be in it.
    if (started === 'running' && joined && waitedForAnotherTab) joined = await this.sendJoin();
    if (started === 'failed' && joined) {
      // The call cannot run in this tab: the room hears you are not in it after all.
      this.expectedJoined = false;
      if (!(await this.sendLeave())) this.expectedJoined = undefined;
      return;
    }
    if (started !== 'running') {
      this.expectedJoined = undefined;
      return;
    }
    if (!joined) {
      this.expectedJoined = undefined;
      await this.end();
      host.setProblem('You could not join the call. Check your connection and try again.');
      return;
    }
    await this.enter(call);
  }

  /**
   * Leaves the call (this tab's, or the one another tab runs): every tab lets go of it. A leave the
   * session could not send is said, as the pop-out's Hang up says it: you are still in the call.
   */
  async hangUp(): Promise<void> {
    if (this.disposed || !this.call) return;
    const { host } = this.options;
    host.setProblem(undefined);
    this.expectedJoined = false;
    // The room hears that you left before your sessions end: a peer that saw them end while you
    // were still in the call would offer you a new one, which you would decline.
    if (!(await this.sendLeave())) {
      this.expectedJoined = undefined;
      host.setProblem('You are still in the call: leaving failed. Check your connection and press Hang up again.');
      this.follow();
      return;
    }
    await this.end();
  }

  /** The session's join of the call; false when it failed (logged). */
  private sendJoin(): Promise<boolean> {
    return this.settled(this.options.commands.rooms.joinCall(this.options.roomAddress), 'joining');
  }

  /** The session's leave of the call; false when it failed (logged). */
  private sendLeave(): Promise<boolean> {
    return this.settled(this.options.commands.rooms.leaveCall(this.options.roomAddress), 'leaving');
  }

  private settled(command: Promise<void>, doing: 'joining' | 'leaving'): Promise<boolean> {
    return command.then(
      () => true,
      (error: unknown) => {
        this.options.logger.error(`${doing} the call failed: ${errorMessage(error)}`);
        return false;
      },
    );
  }

  /** "Move call here": while another tab of yours runs the call, this one takes it over now. */
  moveHere(): void {
    if (!this.disposed) this.call?.takeOver();
  }

  /** The call record changed: take the call, or let it go. */
  follow(): void {
    if (this.disposed) return;
    const joined = this.options.store.get(callAtomFamily(this.options.roomAddress))?.joined === true;
    if (this.expectedJoined !== undefined) {
      if (joined !== this.expectedJoined) return;
      this.expectedJoined = undefined;
    }
    if (joined && !this.call) void this.take();
    else if (!joined && this.call) void this.end();
  }

  /** The view is gone: the Call closes. */
  dispose(): void {
    this.disposed = true;
    const call = this.call;
    this.call = undefined;
    call?.close().catch((error: unknown) => this.options.logger.error(`closing the call failed: ${errorMessage(error)}`));
  }

  /** The record says you are in the call and no call of ours runs it: run it once the lock is ours. */
  private async take(): Promise<void> {
    const call = this.open();
    if ((await this.run(call)) !== 'running') return;
    // Read before this tab reports anything of its own, which would overwrite what the call carries.
    this.options.host.resumeOwnMedia();
    await this.enter(call);
  }

  private open(): CallLike {
    const call = this.options.createCall();
    this.call = call;
    call.on('sendLoad', (load) => {
      if (this.call === call) this.options.host.followSendLoad(load);
    });
    call.on('takenElsewhere', () => void this.takenElsewhere(call));
    call.on('sessionFailed', (error) => {
      if (this.call === call) this.options.host.sessionFailed(error.peerAddress, error.bringingTheirMedia);
    });
    call.on('sendLoss', (losing) => {
      if (this.call === call) this.options.host.setSendingPoorly(losing);
    });
    return call;
  }

  /**
   * Another tab of yours took the call (its "Move call here"): this one lets it go without leaving
   * it — it stops saying what you send before its media go, so the call record keeps your mute and
   * camera for the tab that took it — and waits, showing that the call runs elsewhere.
   */
  private async takenElsewhere(call: CallLike): Promise<void> {
    if (this.call !== call || this.disposed) return;
    this.call = undefined;
    const { host, logger } = this.options;
    host.setReporting(false);
    host.setSendingPoorly(false);
    host.setPhase('elsewhere');
    host.removeLocalMedia();
    await call.close().catch((error: unknown) => logger.error(`closing the call failed: ${errorMessage(error)}`));
    this.follow();
  }

  /**
   * Starts the call (it waits for the call's lock, saying so while another tab runs it, and telling
   * `whileHeldElsewhere`): 'running' once it runs and is still ours; 'failed' where it cannot start
   * (this browser makes no calls); 'gone' when the call was let go of meanwhile.
   */
  private async run(call: CallLike, whileHeldElsewhere?: () => void): Promise<'running' | 'failed' | 'gone'> {
    const { host, logger } = this.options;
    host.setPhase('joining');
    try {
      await call.start(() => {
        if (this.call !== call) return;
        whileHeldElsewhere?.();
        host.setPhase('elsewhere');
        // Another tab sends your camera and microphone: this one keeps none open.
        host.removeLocalMedia();
      });
    } catch (error) {
      logger.error(`the call could not start: ${errorMessage(error)}`);
      if (this.call === call) {
        this.call = undefined;
        host.setPhase('unsupported');
        host.setProblem(error instanceof CallUnsupportedError ? "This browser can't make calls. Use a current version of Chrome, Edge, Firefox or Safari." : 'The call could not start.');
        return 'failed';
      }
      return 'gone';
    }
    return this.call === call && !this.disposed ? 'running' : 'gone';
  }

  private async enter(call: CallLike): Promise<void> {
    if (this.call !== call || this.disposed) return;
    this.options.host.setReporting(true);
    this.options.host.setPhase('in-call');
    await this.options.host.startLocalMedia();
  }

  /** SPEC §4: leaving the call ends its sessions and removes the local media. */
  private async end(): Promise<void> {
    const call = this.call;
    this.call = undefined;
    const closing = call?.close();
    // Out of the call first, so that what is said of you (speaking, muted) is cleared, not updated.
    this.options.host.setPhase('preview');
    this.options.host.setReporting(false);
    this.options.host.setSendingPoorly(false);
    this.options.host.removeLocalMedia();
    await closing?.catch((error: unknown) => this.options.logger.error(`closing the call failed: ${errorMessage(error)}`));
  }
}
