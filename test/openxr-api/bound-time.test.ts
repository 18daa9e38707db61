// NODE-2: a bound per-frame call (space.locate, locateViews, frame queries) reads its time with one
// N-API call of the kind it was given last (a bigint first after a bigint), the other when that
// says the kind changed: every mix of bigint and number times is read exactly, and the refusals
// name the time whichever kind came before (docs/performance.md, "The per-call path at the N-API
// minimum").
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../lib/core/errors.js';
import { createTestInstance, runUntil, type TestInstance } from './helpers.js';

describe('bound calls: the time argument', () => {
  let t: TestInstance | undefined;
  afterEach(() => {
    t?.dispose();
    t = undefined;
  });

  it('NODE-2: bigint and number times in any order locate at exactly that time, and a bad time is refused the same after either kind', async () => {
    t = createTestInstance();
    const session = t.instance.createSession(t.instance.getSystem(), { headless: true });
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    await runUntil(session, () => session.state === 'focused');
    const frame = await session.waitFrame();
    session.beginFrame();
    // The simulated runtime's view moves with time: poses 1 ms apart differ.
    const base = frame.predictedDisplayTime;
    const times = [0n, 1_000_000n, 2_000_000n, 3_000_000n].map((d) => base + d);
    const at = (time: bigint | number): Float32Array => {
      const out = new Float32Array(7);
      view.locate(local, time, out);
      return out;
    };
    // Each pose read alone, the same kind of time every call.
    const byBigint = times.map((time) => at(time));
    const byNumber = times.map((time) => at(Number(time)));
    expect(byNumber).toEqual(byBigint);
    expect(byBigint[1]).not.toEqual(byBigint[0]);
    // Alternating kinds on the same bound call.
    const out = new Float32Array(7);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < times.length; i++) {
        const time = times[i] as bigint;
        view.locate(local, (i + round) % 2 === 0 ? time : Number(time), out);
        expect(out).toEqual(byBigint[i]);
      }
    }
    // Refusals after a bigint and after a number.
    for (const before of [times[0] as bigint, Number(times[0])]) {
      view.locate(local, before, out);
      expect(() => view.locate(local, 1.5, out)).toThrow(/locate: time must be an XrTime, a whole number of nanoseconds: a bigint, or a number up to Number.MAX_SAFE_INTEGER, got 1.5/);
      view.locate(local, before, out);
      expect(() => view.locate(local, 2 ** 60, out)).toThrow(/locate: time is 1152921504606846976, beyond Number.MAX_SAFE_INTEGER/);
      view.locate(local, before, out);
      expect(() => view.locate(local, 2n ** 63n, out)).toThrow(InvalidArgumentError);
      view.locate(local, before, out);
      expect(() => view.locate(local, 2n ** 63n, out)).toThrow(/got a bigint outside \[-2\^63, 2\^63\)/);
      view.locate(local, before, out);
      expect(() => view.locate(local, 'now' as never, out)).toThrow(/got a string/);
    }
    // locateViews and frame queries read their times the same way.
    const views = new Float32Array(22);
    const viewsAt = (time: bigint | number): Float32Array => {
      session.locateViews(local, time, views);
      return views.slice();
    };
    const query = session.createFrameQuery({ spaces: [[view, local]] });
    const queryAt = (time: bigint | number): Float32Array => {
      query.run(time);
      return query.out.slice();
    };
    for (const read of [viewsAt, queryAt]) {
      const expected = times.map((time) => read(time));
      for (let i = 0; i < times.length; i++) expect(read(i % 2 === 0 ? Number(times[i]) : (times[i] as bigint))).toEqual(expected[i]);
    }
    session.endFrame();
  });
});
