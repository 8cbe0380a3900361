/**
 * What the page build gives mediasoup-client in place of its parts no browser of Parley's runs
 * (vite.config.ts `relayClientTrim`): React Native's handler, the fake handler and the fake
 * parameters of its own tests. Each would cost a relay newcomer's page download and compile time
 * before its first frame (issue 14, the bundles).
 */
function leftOut(name: string): { createFactory(): never } {
  return {
    createFactory(): never {
      throw new Error(`mediasoup-client's ${name} is not in Parley's build`);
    },
  };
}

export const ReactNative106 = leftOut('ReactNative106');
export const FakeHandler = leftOut('FakeHandler');
