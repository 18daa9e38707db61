// The frame query bench (lib/tools/bench/frame-bench.ts) times a row's cells round by round (each round one run of every cell),
// so its ratios hold on a machine that slows down for a while: after a child process exits, the
// first rows of a full `npm run bench` measured the C loop 60–70 % slower and the query 80 % slower,
// while the yardstick, measured before and after the rows, was not.
import { describe, expect, it } from 'vitest';
import { timeInRounds } from '../../../lib/tools/bench/rounds.js';

describe('BENCH: frame bench rounds', () => {
  it('BENCH: timeInRounds runs every cell once per round, in turn, so a slow spell that fades over the rows cancels in each round\'s ratio', () => {
    let now = 0;
    // A machine twice as slow at first, back to normal after 10 runs.
    const slowdown = () => (now < 10 ? 2 : 1);
    const cell = (ns: number) => () => {
      const t = ns * slowdown();
      now++;
      return t;
    };
    const calls: string[] = [];
    const traced = (name: string, run: () => number) => () => {
      calls.push(name);
      return run();
    };
    const [query, floor] = timeInRounds(9, [traced('query', cell(120)), traced('floor', cell(100))]);
    expect(calls).toEqual(Array.from({ length: 9 }, () => ['query', 'floor']).flat());
    const ratios = query!.map((q, r) => q / floor![r]!);
    for (const ratio of ratios) expect(ratio).toBeCloseTo(1.2, 12);
    expect(timeInRounds(0, [cell(1)])).toEqual([[]]);
  });
});
