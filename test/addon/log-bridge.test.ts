import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../lib/core/native/load.js';
import { loadTestHooks } from '../helpers/test-hooks.js';

const addon = loadNativeAddon();
const hooks = loadTestHooks();

interface Received {
  level: number;
  source: string;
  message: string;
}

function nextRecords(count: number): Promise<Received[]> {
  return new Promise((resolve) => {
    const received: Received[] = [];
    addon.setLogHandler((level, source, message) => {
      received.push({ level, source, message });
      if (received.length === count) resolve(received);
    });
  });
}

describe('BUILD: native log bridge', () => {
  it('BUILD: records emitted by native code reach JavaScript with level, source and message, in order', async () => {
    const pending = nextRecords(3);
    hooks.emitLog(0, 'openxr', 'first');
    hooks.emitLog(2, 'openxr.negotiate', 'second');
    hooks.emitLog(3, 'vulkan', 'third');
    const records = await pending;
    addon.setLogHandler(null);
    expect(records).toEqual([
      { level: 0, source: 'openxr', message: 'first' },
      { level: 2, source: 'openxr.negotiate', message: 'second' },
      { level: 3, source: 'vulkan', message: 'third' },
    ]);
  });

  it('BUILD: after the handler is removed, nothing more is delivered', async () => {
    let calls = 0;
    addon.setLogHandler(() => {
      calls += 1;
    });
    addon.setLogHandler(null);
    hooks.emitLog(1, 'openxr', 'dropped');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(0);
  });

  it('BUILD: bad arguments throw a TypeError', () => {
    expect(() => hooks.emitLog(9, 'x', 'y')).toThrow(TypeError);
    const setHandler = addon.setLogHandler as unknown as (h: unknown) => void;
    expect(() => setHandler(5)).toThrow(TypeError);
  });
});
