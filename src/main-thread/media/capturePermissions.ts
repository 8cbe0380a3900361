import type { DevicesState } from './devicesState';

/** What the browser says of a capture permission; 'unknown' where it cannot say (no Permissions API, or no such name in it). */
export type CapturePermission = PermissionState | 'unknown';

export interface CapturePermissions {
  readonly camera: CapturePermission;
  readonly microphone: CapturePermission;
}

/** The Permissions API as far as capture reads it. */
export type PermissionsApi = Pick<Permissions, 'query'>;

async function stateOf(permissions: PermissionsApi | undefined, name: 'camera' | 'microphone'): Promise<CapturePermission> {
  try {
    // 'camera' and 'microphone' are not in every browser's PermissionName (Firefox throws a TypeError).
    return permissions ? (await permissions.query({ name: name as PermissionName })).state : 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function readCapturePermissions(permissions: PermissionsApi | undefined): Promise<CapturePermissions> {
  const [camera, microphone] = await Promise.all([stateOf(permissions, 'camera'), stateOf(permissions, 'microphone')]);
  return { camera, microphone };
}

/**
 * What a room's preview asks for at once, as a call's pre-join screen does: camera and microphone,
 * unless the person has refused one (the browser says so, or our last capture of it was refused in
 * this tab). Where the browser asks first, its prompt shows on that screen; a refused kind waits for
 * the person's click ("Request Media", its toggle), which says how to allow it.
 */
export function previewKinds(permissions: CapturePermissions, devices?: Pick<DevicesState, 'cameraPermissionDenied' | 'microphonePermissionDenied'>): { audio: boolean; video: boolean } {
  return {
    audio: permissions.microphone !== 'denied' && devices?.microphonePermissionDenied !== true,
    video: permissions.camera !== 'denied' && devices?.cameraPermissionDenied !== true,
  };
}
