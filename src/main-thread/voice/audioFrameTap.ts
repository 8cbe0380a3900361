/** The name under which the frame tap's AudioWorkletProcessor is registered. */
export const AUDIO_FRAME_TAP_PROCESSOR = 'parley-audio-frame-tap';

/** What the tab tells the tap's processor over the node's port. */
export type AudioFrameTapCommand =
  /** Post frames on `port`, whose other end is in the analysis worker. */
  | { readonly type: 'connect'; readonly port: MessagePort }
  /** Stop posting and let the processor be collected. */
  | { readonly type: 'stop' };
