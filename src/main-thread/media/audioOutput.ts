/** Whether this browser can route an element's audio to a chosen output device (setSinkId). */
export function supportsAudioOutputSelection(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

/**
 * Routes an audio or video element to the output device (SPEC §3 preference audioOutputDeviceId;
 * '' is the system default). Returns false where the browser cannot choose outputs, in which case
 * the element keeps playing on the default output. Rejects with the browser's error for an unknown
 * device or a refused permission.
 */
export async function setAudioOutput(element: HTMLMediaElement, deviceId: string): Promise<boolean> {
  if (!supportsAudioOutputSelection()) return false;
  await element.setSinkId(deviceId);
  return true;
}
