import { describe, expect, it } from 'vitest';
import { loaderLog, type LogRecord } from '../../lib/core/log.js';
import { loadTestHooks } from '../helpers/test-hooks.js';

describe('NODE-7: native log records reach the JavaScript loader log', () => {
  it('NODE-7: a native record arrives as a loaderLog "record" event with its level name', async () => {
    const received = new Promise<LogRecord>((resolve) => {
      loaderLog.once('record', resolve);
    });
    loadTestHooks().emitLog(1, 'openxr.test', 'a warning from C++');
    await expect(received).resolves.toEqual({ level: 'warn', source: 'openxr.test', message: 'a warning from C++' });
  });
});
