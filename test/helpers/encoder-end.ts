// The encoder tests' refusal check: what a recording's end() throws (its class and its message).
import { expect } from 'vitest';
import type { CommandEncoder } from '../../lib/vulkan/index.js';

/** Records into `encoder` (begun here) with `record`, then expects end() to throw an `error` whose message matches `message`. */
export function expectEndRefused(encoder: CommandEncoder, record: (e: CommandEncoder) => unknown, error: Function, message: RegExp): void {
  record(encoder.begin());
  let thrown: unknown;
  try {
    encoder.end();
  } catch (x) {
    thrown = x;
  }
  expect(thrown).toBeInstanceOf(error);
  expect((thrown as Error).message).toMatch(message);
}
