/** Main-thread media: devices, capture, media items, resolution and bitrate, the peer grid. */
export { setAudioOutput, supportsAudioOutputSelection } from './audioOutput';
export { DeviceManager, type DeviceManagerEvents, type DeviceManagerOptions } from './DeviceManager';
export {
  BUILT_IN_SPEAKER_INPUT_LABEL,
  devicesFromEnumeration,
  initialDevicesState,
  isBuiltInSpeakerInput,
  type DeviceInfo,
  type DevicesState,
} from './devicesState';
export * from './errors';
export {
  abortRetryDelayMs,
  MediaCapture,
  type AudioContentHint,
  type CapturedMedia,
  type DisplayMediaRequest,
  type MediaCaptureOptions,
  type UserMediaRequest,
  type VideoContentHint,
} from './MediaCapture';
export type { MediaDevicesApi } from './MediaDevicesApi';
export { previewKinds, readCapturePermissions, type CapturePermission, type CapturePermissions, type PermissionsApi } from './capturePermissions';
export { EarlyPreviewCapture, withPreviewCapture, type PreviewCapture } from './PreviewCapture';
export { assertTrackKind, isVoice, offForOthers, screenSoundOf, type MediaItem, type MediaItemChange, type MediaItemSource, type MediaKind, type VideoProfile } from './MediaItem';
export {
  MediaItems,
  type LocalMediaOptions,
  type MediaItemsEvents,
  type MediaItemsOptions,
  type PeerMediaActivity,
  type ReceivingMedia,
  type RemoteMediaDescription,
} from './MediaItems';
export { probeMediaLoaded, type MediaLoadedInfo } from './mediaLoaded';
export { standInCameraStream } from './standInCamera';
export { peerGridLayout, spotlightGridLayout, type GridTilePlacement, type PeerGridLayout } from './peerGridLayout';
export { maxBitratePerVideo } from './videoBitrate';
export {
  adjustVideoCaptureResolution,
  cameraConstraintsFor,
  captureResolutionTier,
  NO_SEND_LOAD,
  relayResolutionTier,
  resolutionConstraintsFor,
  selectResolutionTier,
  type VideoResolutionTiers,
  type VideoSendLoad,
} from './videoResolution';
