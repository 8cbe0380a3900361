/**
 * The part of `navigator.mediaDevices` the media modules use, injected so that unit tests can stand
 * in for the browser where a real one cannot produce the case (AbortError, a refusal, a missing
 * track, devices with particular labels). `getDisplayMedia` is optional: not every browser has it.
 */
export type MediaDevicesApi = Pick<
  MediaDevices,
  'enumerateDevices' | 'getUserMedia' | 'getSupportedConstraints' | 'addEventListener' | 'removeEventListener'
> & { getDisplayMedia?: MediaDevices['getDisplayMedia'] };
