// Frame queries on the OpenXR runtimes of the system suite (the simulated runtime and Monado, a runtime
// we did not write): a frame query's results equal the separate calls' (space.locate,
// session.locateViews) bit for bit, on an OpenXR 1.0 instance (a native loop of xrLocateSpace)
// and on a 1.1 instance (the runtime's xrLocateSpaces, one call per base space).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../lib/core/platform/linux.js';
import { XR_API_VERSION_1_0, XR_API_VERSION_1_1 } from '../../lib/generated/openxr.js';
import type { Instance } from '../../lib/openxr/api/instance.js';
import { nativeRuntimeExtensions } from '../../lib/openxr/native/plan.js';
import type { Space } from '../../lib/openxr/api/space.js';
import { POSE_FLOATS, SpaceLocationFlags, VIEW_FLOATS, type ReferenceSpaceTypeName } from '../../lib/openxr/api/types.js';
import { createLoader } from '../../lib/openxr/loader.js';
import { applyProcessEnv, openXrRuntimesUnderTest, type OpenXrRuntimeUnderTest } from '../helpers/openxr-runtimes.js';

const ALL_VALID = SpaceLocationFlags.ORIENTATION_VALID | SpaceLocationFlags.POSITION_VALID;
const bits = (a: ArrayLike<number>): number[] => Array.from(new Uint32Array(Float32Array.from(a).buffer));

const cases = openXrRuntimesUnderTest().flatMap((runtime) =>
  (
    [
      ['1.0', XR_API_VERSION_1_0, 'xrLocateSpace'],
      ['1.1', XR_API_VERSION_1_1, 'xrLocateSpaces'],
    ] as const
  ).map(([version, apiVersion, locatePath]) => [runtime.title, version, runtime, apiVersion, locatePath] as const),
);

describe.each(cases)('frame query on %s, OpenXR %s instance', (_title, _version, runtime: OpenXrRuntimeUnderTest, apiVersion, locatePath) => {
  const skip = runtime.skip;
  let restoreEnv = (): void => {};
  let instance: Instance | undefined;
  beforeAll(() => {
    if (skip === null) restoreEnv = applyProcessEnv(runtime.processEnv);
  });
  afterAll(() => restoreEnv());
  afterEach(() => {
    if (instance && !instance.isDestroyed) instance.destroy();
    instance = undefined;
  });

  it.skipIf(skip !== null)(`NODE-3: run() equals space.locate and locateViews bit for bit at the runtime's times, through ${locatePath}`, () => {
    const env = { ...process.env, XR_RUNTIME_JSON: runtime.manifest ?? '' };
    const loader = createLoader({ platform: createLinuxPlatform({ env }), runtimeExtensions: nativeRuntimeExtensions });
    const offered = loader.enumerateInstanceExtensionProperties().map((e) => e.name);
    const clock = offered.includes('XR_KHR_convert_timespec_time');
    instance = loader.createInstance({
      applicationName: `frame-query (${runtime.id})`,
      apiVersion,
      enabledExtensionNames: ['XR_MND_headless', ...(clock ? ['XR_KHR_convert_timespec_time'] : [])],
    });
    const session = instance.createSession(instance.getSystem(), { headless: true });
    instance.pollEvents();
    session.beginSession();
    instance.pollEvents();
    // Every reference space the runtime offers (LOCAL_FLOOR too on a 1.1 instance where it has it), with offsets.
    const types = session.referenceSpaceTypes().filter((t): t is ReferenceSpaceTypeName => typeof t === 'string');
    expect(types).toEqual(expect.arrayContaining(['view', 'local', 'stage']));
    const spaces = types.map((t) => session.createReferenceSpace(t));
    const offset = session.createReferenceSpace('view', [0.03, -0.1, -0.3, 0, 0.3826834, 0, 0.9238795]);
    const [view, local, stage] = (['view', 'local', 'stage'] as const).map((t) => spaces[types.indexOf(t)] as Space) as [Space, Space, Space];
    const pairs: [Space, Space][] = [...spaces.map((s): [Space, Space] => [s, local]), ...spaces.map((s): [Space, Space] => [s, stage]), [offset, local], [offset, view], [view, offset]];
    const query = session.createFrameQuery({ spaces: pairs, views: { space: local } });
    expect(query.locatePath).toBe(locatePath);
    const pose = new Float32Array(POSE_FLOATS);
    const views = new Float32Array(2 * VIEW_FLOATS);
    for (const offsetNs of [0n, 11_000_000n, 250_000_000n]) {
      const time = (clock ? instance.monotonicNowAsXrTime() : process.hrtime.bigint()) + offsetNs;
      query.run(time);
      pairs.forEach(([space, base], i) => {
        const flags = space.locate(base, time, pose);
        const at = query.spaceOffset(i);
        expect(flags & ALL_VALID, `spaces[${i}]`).toBe(ALL_VALID);
        expect(query.out[at + 7]).toBe(flags);
        expect(bits(query.out.subarray(at, at + POSE_FLOATS)), `spaces[${i}] at +${offsetNs} ns`).toEqual(bits(pose));
      });
      expect(query.out[query.layout.viewState]).toBe(session.locateViews(local, time, views));
      expect(bits(query.out.subarray(query.layout.views, query.layout.views + 2 * VIEW_FLOATS))).toEqual(bits(views));
    }
  });
});
