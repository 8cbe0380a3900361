/**
 * The `debug` package as mediasoup-client and its helpers use it, silent (vite.config.ts
 * `relayClientTrim`): its output shows only when turned on in the browser's storage, which
 * Parley's logs do not rely on, and it would cost the relay newcomer's page before its first frame.
 */
interface QuietLog {
  (...args: unknown[]): void;
  enabled: boolean;
  log: (...args: unknown[]) => void;
}

export default function debug(): QuietLog {
  const log = (() => {}) as QuietLog;
  log.enabled = false;
  log.log = () => {};
  return log;
}
