import { EventEmitter } from 'node:events';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { types } from 'mediasoup';
import { describe, expect, it } from 'vitest';
import { LayerWatch } from '../../server/relay/LayerWatch';

/** A simulcast video producer as LayerWatch reads it. */
function videoProducer(): types.Producer & { observer: EventEmitter } {
  return {
    closed: false,
    observer: new EventEmitter(),
    rtpParameters: { codecs: [], encodings: [{ rid: 'low' }, { rid: 'high' }] },
    getStats: async () => [],
  } as unknown as types.Producer & { observer: EventEmitter };
}

describe('A video’s layer watch takes one listener per consumer, however many receive it', () => {
  it('an 11th consumer’s listener prints no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    const producer = videoProducer();
    try {
      const watch = new LayerWatch(producer);
      for (let consumer = 0; consumer < 11; consumer++) watch.on('change', () => undefined);
      await yieldToEventLoop();

      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      producer.observer.emit('close');
      process.off('warning', onWarning);
    }
  });
});
