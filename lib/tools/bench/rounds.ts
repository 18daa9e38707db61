// Timing in rounds: each round one run of every cell in turn, so the runs of a round lie close
// together and a slow spell of the machine slows them alike; a ratio between two cells is then
// the median over the rounds of that round's ratio, in which the spell cancels.
import { summarize } from './stats.js';
import { InvalidArgumentError } from '../../core/errors.js';

/** One timed run of a cell: ns per call (or per frame). */
export type TimedRun = () => number;

/** `rounds` rounds, each one run of every cell in turn. Each cell's runs, in round order. */
export function timeInRounds(rounds: number, cells: readonly TimedRun[]): number[][] {
  const runs = cells.map((): number[] => []);
  for (let r = 0; r < rounds; r++) cells.forEach((cell, c) => runs[c]!.push(cell()));
  return runs;
}

/** The median over the rounds of a[r] ÷ b[r] (two cells' runs from the same rounds). */
export function medianRoundRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new InvalidArgumentError(`medianRoundRatio(a, b): a and b must be the same non-empty rounds, got ${a.length} and ${b.length} runs`, 'b');
  return summarize(a.map((x, r) => x / b[r]!)).median;
}
