// Waiting for an asynchronous event in a test: poll its condition until it holds or a deadline of
// seconds passes, never a fixed sleep (a busy machine may run a timer before the event's delivery).
import { setTimeout as sleep } from 'node:timers/promises';
import { threadSanitizerTimeout } from './sanitizer-env.js';

/** Polls `condition` every few milliseconds; throws naming `what` when it has not held within `timeoutMs` (by default 30 s: a worker starting on a loaded 2-core machine took more than 10; 240 s under ThreadSanitizer). */
export async function until(what: string, condition: () => boolean, timeoutMs = threadSanitizerTimeout(30_000)): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(2);
  }
}
