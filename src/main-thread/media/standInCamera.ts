/**
 * What takes a camera's place while it is off: a canvas captured at no frame rate, so it holds no
 * device (the camera's light goes out) and sends nothing, yet is a live track — which
 * `RTCRtpSender.replaceTrack` and mediasoup-client's producers take, where an ended one is refused.
 * Its sessions and producers keep their video, and the camera comes back by a track swap, with no
 * renegotiation.
 */
export function standInCameraStream(): MediaStream {
  const canvas = document.createElement('canvas');
  // 16:9, as the camera it stands in for: a receiver's layout never sees a frame of it anyway.
  canvas.width = 320;
  canvas.height = 180;
  return canvas.captureStream(0);
}
