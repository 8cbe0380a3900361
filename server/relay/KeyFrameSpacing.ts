import type { types } from 'mediasoup';

/**
 * How long a Chromium sender ignores keyframe requests after honouring one (WebRTC's
 * EncoderRtcpFeedback, min_keyframe_send_interval). Honouring one makes a keyframe of every
 * simulcast layer, so the interval runs from the last keyframe of any layer.
 */
export const SENDER_KEYFRAME_INTERVAL_MS = 300;

/**
 * When the relay may ask one simulcast video producer's sender for a keyframe and be heard. A
 * layer switch asks for a keyframe of the new layer, and mediasoup, while that request is pending,
 * asks again only after 1 s: a switch asked for within the sender's interval after a keyframe (a
 * receiver resizing a tile twice, two receivers switching at once) would wait that second. Waiting
 * out the interval first costs at most 300 ms. Keyframes are seen as they arrive, from mediasoup's
 * `keyframe` trace events, which the relay enables for nothing else.
 */
export class KeyFrameSpacing {
  private lastKeyFrameAt = -Infinity;

  constructor(producer: types.Producer) {
    producer.on('trace', (trace) => {
      if (trace.type === 'keyframe') this.lastKeyFrameAt = performance.now();
    });
    // A producer closed meanwhile has no keyframes to trace.
    producer.enableTraceEvent(['keyframe']).catch(() => {});
  }

  /** How long until a keyframe request reaches a sender that honours it: 0 when one would now. */
  msUntilHeard(): number {
    return Math.max(0, this.lastKeyFrameAt + SENDER_KEYFRAME_INTERVAL_MS - performance.now());
  }

  /**
   * Runs `heard` (in a timer's task) once a keyframe request would be honoured: a keyframe that
   * comes while it waits starts the interval again, which it then waits out too. Returns what
   * cancels it.
   */
  whenHeard(heard: () => void): () => void {
    const check = (): void => {
      const wait = this.msUntilHeard();
      if (wait > 0) timer = setTimeout(check, wait);
      else heard();
    };
    let timer = setTimeout(check, this.msUntilHeard());
    return () => clearTimeout(timer);
  }
}
