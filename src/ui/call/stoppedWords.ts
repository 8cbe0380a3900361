/** A camera or microphone the system stopped, and in the call what the others get until it comes back by itself. */
export function stoppedWords({ camera, microphone }: { readonly camera: boolean; readonly microphone: boolean }, inCall: boolean): string {
  if (camera && microphone) return `Your camera and microphone stopped: your system paused them, or another app is using them.${inCall ? ' Until they are back, the others neither see nor hear you.' : ''}`;
  if (camera) return `Your camera stopped: your system paused it, or another app is using it.${inCall ? ' Until it is back, the others see your camera off.' : ''}`;
  return `Your microphone stopped: your system muted it, or another app is using it.${inCall ? ' Until it is back, the others cannot hear you.' : ''}`;
}
