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

  it('BUILD: a flush resolves after every record emitted before it; after the handler is removed, nothing more is delivered', async () => {
    const first: string[] = [];
    addon.setLogHandler((_level, _source, message) => void first.push(message));
    hooks.emitLog(1, 'openxr', 'kept 1');
    hooks.emitLog(1, 'openxr', 'kept 2');
    await addon.flushLog();
    expect(first).toEqual(['kept 1', 'kept 2']);
    addon.setLogHandler(null);
    hooks.emitLog(1, 'openxr', 'dropped');
    const second: string[] = [];
    addon.setLogHandler((_level, _source, message) => void second.push(message));
    hooks.emitLog(1, 'openxr', 'after');
    await addon.flushLog();
    expect(first).toEqual(['kept 1', 'kept 2']);
    expect(second).toEqual(['after']);
    // A flush still waiting when its handler is removed settles (nothing before it will come).
    hooks.emitLog(1, 'openxr', 'pending');
    const waiting = addon.flushLog();
    addon.setLogHandler(null);
    await waiting;
    // Without a handler there is nothing to wait for.
    await addon.flushLog();
  });

  it('BUILD: bad arguments throw a TypeError', () => {
    expect(() => hooks.emitLog(9, 'x', 'y')).toThrow(TypeError);
    const setHandler = addon.setLogHandler as unknown as (h: unknown) => void;
    expect(() => setHandler(5)).toThrow(TypeError);
  });
});
