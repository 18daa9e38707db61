// The per-call measure of `bench openxr`: the reads timed in rounds beside the plain-C yardstick.
import { describe, expect, it } from 'vitest';
import { loadToolsAddon, loadYardstickAddon } from '../../lib/tools/native/addon.js';
import { nativeInstanceOf } from '../../lib/openxr/api/instance.js';
import { fromNative } from '../../lib/openxr/errors.js';
import { openXrErrorFrom } from '../helpers/errors.js';
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
        // The runtime's call alone was timed, and the path above it is judged within the same rounds.
        expect(cell.runtime.median).toBeGreaterThan(0);
        expect(cell.pathRatio).toBeGreaterThanOrEqual((cell.ns.min - cell.runtime.max) / result.yardstick.max);
        expect(cell.pathRatio).toBeLessThanOrEqual((cell.ns.max - cell.runtime.min) / result.yardstick.min);
      }
    } finally {
      t.dispose();
    }
  });

  it("BENCH: the runtime call timed alone is the read's own call: the runtime's answer for those handles comes back", () => {
    const t = createTestInstance({ extensions: ['XR_MND_headless', 'XR_EXT_hand_tracking'] });
    try {
      const { instance } = t;
      const session = instance.createSession(instance.getSystem(), { headless: true });
      const set = instance.createActionSet({ name: 'timed', localizedName: 'timed' });
      const flag = set.createAction({ name: 'flag', localizedName: 'flag', type: 'boolean' });
      session.attachActionSets([set]);
      const addon = loadToolsAddon();
      const native = nativeInstanceOf(instance);
      expect(addon.benchOpenXrRuntimeCall(native, 'xrGetActionStateBoolean', [session.handle, flag.handle], 1_000_000_000, 100)).toBeGreaterThan(0);
      // The same action read as a float: the runtime refuses it, and the timed loop says so.
      const refused = openXrErrorFrom(() => {
        try {
          addon.benchOpenXrRuntimeCall(native, 'xrGetActionStateFloat', [session.handle, flag.handle], 1_000_000_000, 100);
        } catch (error) {
          throw fromNative(error);
        }
      });
      expect(refused.result).toBe('XR_ERROR_ACTION_TYPE_MISMATCH');
      expect(refused.message).toContain('xrGetActionStateFloat failed in the timed loop');
      session.destroy();
    } finally {
      t.dispose();
    }
  });
});
