import type { types } from 'mediasoup';

/**
 * How long a Chromium sender ignores keyframe requests after honouring one (WebRTC's
 * EncoderRtcpFeedback, min_keyframe_send_interval). The interval runs from the request it honoured,
 * whichever simulcast layer it named (it makes a keyframe of every layer), not from the keyframe,
 * which comes 20–90 ms later; a keyframe the sender makes of its own accord (a layer it starts
 * encoding again) starts no interval.
 */
export const SENDER_KEYFRAME_INTERVAL_MS = 300;

/**
 * How much a request's way to the sender and its reading there vary. A request sent this close to
 * the interval's end may have been heard: the interval then runs from it. A move waits this much
 * past the interval's end, so its request is not the one that comes a little too soon.
 */
export const KEYFRAME_REQUEST_JITTER_MS = 30;

/**
 * When the relay may ask one simulcast video producer's sender for a keyframe and be heard. A
 * layer switch asks for a keyframe of the new layer, and mediasoup, while that request is pending,
 * asks again only after 1 s: a switch asked for within the sender's interval after a request it
 * honoured (a receiver resizing a tile twice, two receivers switching at once) would wait that
 * second. Waiting out the interval first costs at most 300 ms. The relay's requests are seen as
 * they go, from mediasoup's outgoing `pli` and `fir` trace events — its own retries and the
 * receivers' requests it passes on too — which the relay enables for nothing else.
 */
export class KeyFrameSpacing {
  /** When the relay last sent a keyframe request the sender honoured, or may have. */
  private lastHeardAt = -Infinity;

  constructor(producer: types.Producer) {
    producer.on('trace', (trace) => {
      if ((trace.type === 'pli' || trace.type === 'fir') && trace.direction === 'out') this.requestSent(performance.now());
    });
    // A producer closed meanwhile sends no more requests.
    producer.enableTraceEvent(['pli', 'fir']).catch(() => {});
  }

  private requestSent(at: number): void {
    if (at >= this.lastHeardAt + SENDER_KEYFRAME_INTERVAL_MS - KEYFRAME_REQUEST_JITTER_MS) this.lastHeardAt = at;
  }

  /** How long until a keyframe request reaches a sender that honours it: 0 when one would now. */
  msUntilHeard(): number {
    return Math.max(0, this.lastHeardAt + SENDER_KEYFRAME_INTERVAL_MS + KEYFRAME_REQUEST_JITTER_MS - performance.now());
  }

  /**
   * Runs `heard` (in a timer's task) once a keyframe request would be honoured: a request the sender
   * hears while it waits (mediasoup asking again, a receiver's passed on) starts the interval again,
   * which it then waits out too. Returns what cancels it.
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
