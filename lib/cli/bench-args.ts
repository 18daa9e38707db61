// What `bench openxr` and `bench vulkan` share: the CLI's output streams and a whole-number flag.
import type { LogWriter } from '../core/log.js';

export interface BenchCliIo {
  stdout: (text: string) => void;
  stderr: LogWriter;
}

/** A flag's value as a whole number >= 1, or the usage error. */
export function positiveInteger(flag: string, value: string | undefined): number | string {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isInteger(n) || n < 1) return `${flag} needs a whole number >= 1, got ${JSON.stringify(value ?? '')}`;
  return n;
}
