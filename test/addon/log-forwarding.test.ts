import { describe, expect, it } from 'vitest';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { loadNativeAddon, type NativeAddon } from '../../lib/core/native/load.js';

/** The test hook that emits a native log record (not part of the typed product surface). */
type TestHooks = NativeAddon & { emitLog(level: number, source: string, message: string): void };

describe('NODE-7: native log records reach the JavaScript loader log', () => {
  it('NODE-7: a native record arrives as a loaderLog "record" event with its level name', async () => {
    const addon = (loadNativeAddon() as TestHooks);
    const received = new Promise<LogRecord>((resolve) => {
      loaderLog.once('record', resolve);
    });
    addon.emitLog(1, 'openxr.test', 'a warning from C++');
    await expect(received).resolves.toEqual({ level: 'warn', source: 'openxr.test', message: 'a warning from C++' });
  });
});
