// What /proc/self/maps says about this process's shared objects.
import { readFileSync } from 'node:fs';

/** The file whose mapping contains `address`. */
export function owningLibrary(address: bigint): string | undefined {
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const [range, , , , , file] = line.split(/\s+/);
    if (!range || !file) continue;
    const [lo, hi] = range.split('-').map((h) => BigInt(`0x${h}`));
    if (address >= lo! && address < hi!) return file;
  }
  return undefined;
}
