/**
 * SPEC §3 / §9: how loud a peer plays here — their volume limit (default 0.8) times the global
 * limit (1; deafened 0), kept within what an audio element accepts.
 */
export function playbackVolume(peerVolumeLimit: number, globalVolumeLimit: number): number {
  const volume = peerVolumeLimit * globalVolumeLimit;
  if (!Number.isFinite(volume)) return 0;
  return Math.min(1, Math.max(0, volume));
}
