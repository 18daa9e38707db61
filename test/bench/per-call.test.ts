// The per-call measure of `bench openxr`: the reads timed in rounds beside the plain-C yardstick.
import { describe, expect, it } from 'vitest';
import { loadYardstickAddon } from '../../lib/tools/native/addon.js';
import { measurePerCall } from '../../lib/tools/bench/measure-per-call.js';
import { createTestInstance } from '../openxr-api/helpers.js';

describe('per-call measure', () => {
  it('BENCH: the yardstick addon answers like the empty call it stands for (a > b)', () => {
    const { empty } = loadYardstickAddon();
    expect(empty(2, 1)).toBe(1);
    expect(empty(1, 2)).toBe(0);
  });

  it('BENCH: space.locate, handTracker.locate and the four action-state reads are timed beside the yardstick, each ratio within its rounds', () => {
    const t = createTestInstance({ extensions: ['XR_MND_headless', 'XR_EXT_hand_tracking'] });
    try {
      const result = measurePerCall(t.instance, 5, 2_000);
      expect(result.skipped).toEqual({});
      expect(result.cells.map((c) => c.name)).toEqual(['space.locate', 'space.locate (bigint time)', 'handTracker.locate', 'action.getBoolean', 'action.getFloat', 'action.getVector2f', 'action.getPose']);
      expect(result.yardstick.median).toBeGreaterThan(0);
      for (const cell of result.cells) {
        expect(cell.ns.median).toBeGreaterThan(0);
        // The median of the rounds' ratios lies between the extreme ratios any two runs could give.
        expect(cell.ratio).toBeGreaterThanOrEqual(cell.ns.min / result.yardstick.max);
        expect(cell.ratio).toBeLessThanOrEqual(cell.ns.max / result.yardstick.min);
      }
    } finally {
      t.dispose();
    }
  });
});
