// The paced bench's koffi side (docs/performance.md, 'OpenXR: the paced frame'): the same reads
// through another loader library (the Khronos OpenXR loader) called with koffi from JavaScript, in
// the same paced loop: xrWaitFrame through koffi's asynchronous call (a worker thread blocks in it
// while the JavaScript thread sleeps), then xrBeginFrame, the timed reads, xrEndFrame. The session
// is the C rig's (native/tools/bench/openxr_paced_bench.cc, begun and focused on that library).
import type { NativeOpenXrPacedRig } from '../native/addon.js';
import { InternalError } from '../../core/errors.js';

/** The part of koffi's API used here: a function with its asynchronous form. */
interface KoffiFunction {
  (...args: unknown[]): unknown;
  async(...args: unknown[]): void;
}
export interface KoffiPacedModule {
  load(path: string): { func(prototype: string): KoffiFunction };
}

/** What a koffi frame times: the first xrLocateSpace, every space's, or the whole frame query's reads. */
export type KoffiPacedRead = 'first-locate' | 'locates' | 'query';

// Structure types and sizes on 64-bit (the OpenXR headers' layouts).
const XR_TYPE_VIEW_LOCATE_INFO = 6;
const XR_TYPE_VIEW = 7;
const XR_TYPE_VIEW_STATE = 11;
const XR_TYPE_FRAME_END_INFO = 12;
const XR_TYPE_EVENT_DATA_BUFFER = 16;
const XR_TYPE_ACTION_STATE_BOOLEAN = 23;
const XR_TYPE_ACTION_STATE_FLOAT = 24;
const XR_TYPE_FRAME_WAIT_INFO = 33;
const XR_TYPE_SPACE_LOCATION = 42;
const XR_TYPE_FRAME_STATE = 44;
const XR_TYPE_FRAME_BEGIN_INFO = 46;
const XR_TYPE_ACTION_STATE_GET_INFO = 58;
const PRIMARY_STEREO = 2;
const SPACE_LOCATION_BYTES = 56;
const VIEW_BYTES = 64;
const EVENT_BUFFER_BYTES = 4016;

function typed(bytes: number, type: number): Buffer {
  const b = Buffer.alloc(bytes);
  b.writeInt32LE(type, 0);
  return b;
}

/**
 * ms of JavaScript-thread time per paced frame for `what`, over `durationMs`, through `libraryPath`
 * with koffi on the rig's session. Throws where the runtime's xrWaitFrame gives no display time
 * (a headless Monado): this loop has no timer of its own.
 */
export async function koffiPacedLoop(koffi: KoffiPacedModule, libraryPath: string, rig: NativeOpenXrPacedRig, what: KoffiPacedRead, durationMs: number): Promise<number[]> {
  const h = rig.handles;
  if (!h.waitFrameTimes) throw new InternalError('the koffi loop needs display times from xrWaitFrame (this runtime gives none headless)');
  const lib = koffi.load(libraryPath);
  const waitFrame = lib.func('int32_t xrWaitFrame(uint64_t session, void *info, void *state)');
  const beginFrame = lib.func('int32_t xrBeginFrame(uint64_t session, void *info)');
  const endFrame = lib.func('int32_t xrEndFrame(uint64_t session, void *info)');
  const pollEvent = lib.func('int32_t xrPollEvent(uint64_t instance, void *event)');
  const locateSpace = lib.func('int32_t xrLocateSpace(uint64_t space, uint64_t baseSpace, int64_t time, void *location)');
  const locateViews = lib.func('int32_t xrLocateViews(uint64_t session, void *info, void *state, uint32_t capacity, void *count, void *views)');
  const getBoolean = lib.func('int32_t xrGetActionStateBoolean(uint64_t session, void *info, void *state)');
  const getFloat = lib.func('int32_t xrGetActionStateFloat(uint64_t session, void *info, void *state)');

  const waitInfo = typed(16, XR_TYPE_FRAME_WAIT_INFO);
  const frameState = typed(40, XR_TYPE_FRAME_STATE);
  const beginInfo = typed(16, XR_TYPE_FRAME_BEGIN_INFO);
  const endInfo = typed(40, XR_TYPE_FRAME_END_INFO);
  endInfo.writeInt32LE(1, 24); // XR_ENVIRONMENT_BLEND_MODE_OPAQUE
  const event = typed(EVENT_BUFFER_BYTES, XR_TYPE_EVENT_DATA_BUFFER);
  const locations = h.spaces.map(() => typed(SPACE_LOCATION_BYTES, XR_TYPE_SPACE_LOCATION));
  const viewInfo = typed(40, XR_TYPE_VIEW_LOCATE_INFO);
  viewInfo.writeInt32LE(PRIMARY_STEREO, 16);
  viewInfo.writeBigUInt64LE(h.local, 32);
  const viewState = typed(24, XR_TYPE_VIEW_STATE);
  const viewCount = Buffer.alloc(4);
  const views = Buffer.alloc(2 * VIEW_BYTES);
  for (let v = 0; v < 2; v++) views.writeInt32LE(XR_TYPE_VIEW, v * VIEW_BYTES);
  const actionInfos = h.actions.map((a) => {
    const b = typed(32, XR_TYPE_ACTION_STATE_GET_INFO);
    b.writeBigUInt64LE(a.action, 16);
    b.writeBigUInt64LE(a.subactionPath, 24);
    return b;
  });
  const actionStates = h.actions.map((a) => typed(40, a.type === 'boolean' ? XR_TYPE_ACTION_STATE_BOOLEAN : XR_TYPE_ACTION_STATE_FLOAT));
  const out = new Float32Array(h.spaces.length + 1 + h.actions.length);
  const check = (r: unknown, call: string): void => {
    if (typeof r !== 'number' || r < 0) throw new InternalError(`${call} through koffi returned ${String(r)}`);
  };
  const { session, local, spaces, actions, instance } = h;
  const wait = (): Promise<number> =>
    new Promise((resolve, reject) => waitFrame.async(session, waitInfo, frameState, (error: unknown, r: number) => (error ? reject(error) : resolve(r))));

  const samples: number[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    check(await wait(), 'xrWaitFrame');
    const time = frameState.readBigInt64LE(16);
    check(beginFrame(session, beginInfo), 'xrBeginFrame');
    const t0 = performance.now();
    let r = 0;
    if (what === 'first-locate') {
      r |= locateSpace(spaces[0], local, time, locations[0]) as number;
      out[0] = (locations[0] as Buffer).readFloatLE(44); // pose.position.y
    } else {
      for (let i = 0; i < spaces.length; i++) {
        const location = locations[i] as Buffer;
        r |= locateSpace(spaces[i], local, time, location) as number;
        out[i] = location.readFloatLE(44);
      }
      if (what === 'query') {
        viewInfo.writeBigInt64LE(time, 24);
        r |= locateViews(session, viewInfo, viewState, 2, viewCount, views) as number;
        out[spaces.length] = views.readFloatLE(16);
        for (let i = 0; i < actions.length; i++) {
          const state = actionStates[i] as Buffer;
          r |= ((actions[i]?.type === 'boolean' ? getBoolean : getFloat)(session, actionInfos[i], state) as number);
          out[spaces.length + 1 + i] = actions[i]?.type === 'boolean' ? state.readInt32LE(16) : state.readFloatLE(16);
        }
      }
    }
    samples.push(performance.now() - t0);
    check(r, `the timed reads (${what})`);
    endInfo.writeBigInt64LE(time, 16);
    check(endFrame(session, endInfo), 'xrEndFrame');
    for (let i = 0; i < 16 && pollEvent(instance, event) === 0; i++) event.writeInt32LE(XR_TYPE_EVENT_DATA_BUFFER, 0);
  }
  return samples;
}
