// Waiting for an asynchronous event in a test: poll its condition until it holds or a deadline of
// seconds passes, never a fixed sleep (a busy machine may run a timer before the event's delivery).
import { setTimeout as sleep } from 'node:timers/promises';
import { threadSanitizerTimeout } from './sanitizer-env.js';

/** Polls `condition` every few milliseconds; throws naming `what` when it has not held within `timeoutMs` (by default 10 s, 80 s under ThreadSanitizer). */
export async function until(what: string, condition: () => boolean, timeoutMs = threadSanitizerTimeout(10_000)): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(2);
  }
}
