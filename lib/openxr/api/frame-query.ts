// A frame query (docs/usage.md, 'One native call per frame: frame queries'): everything a frame reads from the runtime — many (space, base)
// locations, the views, action states — in one native call per frame, written into one
// Float32Array. Bound once to its list (session.createFrameQuery()); each run(time) crosses into
// native code once and allocates nothing. Spaces are located with xrLocateSpaces (one call per
// distinct base) on an OpenXR 1.1 instance whose runtime has it, with a native loop of
// xrLocateSpace otherwise; either way the floats are the ones space.locate() writes.
import { OpenXrError } from '../errors.js';
import { nativeActionOf, type Action } from './action.js';
import { callNative, instanceState, nativeSessionOf, pathOf } from './handles.js';
import { rethrowNative } from '../errors.js';
import { loadOpenXrAddon, type NativeFrameQueryAction, type NativeOpenXrAddon, type NativeSpace } from '../native/addon.js';
import type { Session } from './session.js';
import { handleDestroyed, nativeSpaceOf, Space } from './space.js';
import { VIEW_CONFIGURATION_TYPES, VIEW_FLOATS, enumValue, type ViewConfigurationTypeName } from './types.js';
import { InvalidArgumentError, invalidArgument } from '../../core/errors.js';

/** Floats per located space in a frame query's output: px py pz qx qy qz qw, then XrSpaceLocationFlags. */
export const FRAME_SPACE_FLOATS = 8;
/** Floats per action in a frame query's output: value x, value y, changedSinceLastSync (0/1), isActive (0/1). */
export const FRAME_ACTION_FLOATS = 4;

/** One space to locate, in its base space. */
export interface FrameQuerySpace {
  readonly space: Space;
  readonly base: Space;
}

/** One action state to read (as of the last syncActions). */
export interface FrameQueryAction {
  readonly action: Action;
  /** A top-level user path such as '/user/hand/left'; default: none. */
  readonly subactionPath?: string;
}

export interface FrameQueryOptions {
  /** The spaces to locate, each in its base: `{ space, base }` or `[space, base]`. */
  readonly spaces?: readonly (FrameQuerySpace | readonly [space: Space, base: Space])[];
  /** xrLocateViews of a view configuration (default 'primary-stereo') in `space`. */
  readonly views?: { readonly space: Space; readonly viewConfigurationType?: ViewConfigurationTypeName };
  /** Boolean, float, vector2f and pose actions: an Action, or `{ action, subactionPath }`. */
  readonly actions?: readonly (Action | FrameQueryAction)[];
  /**
   * How the spaces are located: 'auto' (the default) uses xrLocateSpaces on an OpenXR 1.1 instance
   * whose runtime has it, 'xrLocateSpace' always loops over xrLocateSpace natively — for a runtime
   * whose xrLocateSpaces costs more than the loop (Monado's, see bench/RESULTS.md).
   */
  readonly locateWith?: 'auto' | 'xrLocateSpace';
  /**
   * The output run() writes when it is given none (default: a new Float32Array of `layout.length`,
   * `query.out`). At least `layout.length` floats.
   */
  readonly out?: Float32Array;
}

/**
 * Where each result lies in the output (offsets in floats). The layout is fixed by the list:
 *
 * - `spaces`: entry i at `spaces + i * FRAME_SPACE_FLOATS`: pose px py pz qx qy qz qw, then the
 *   XrSpaceLocationFlags (SpaceLocationFlags bits, as a number).
 * - `viewState`: the XrViewStateFlags (ViewStateFlags bits), then view i at `views + i * VIEW_FLOATS`:
 *   pose (7), then fov angleLeft angleRight angleUp angleDown — as session.locateViews() writes them.
 *   Both -1 without views.
 * - `actions`: entry i at `actions + i * FRAME_ACTION_FLOATS`: value x, value y, changedSinceLastSync,
 *   isActive. Boolean: x is 0 or 1; float: x; vector2f: x and y; pose: isActive alone (x, y, changed 0).
 */
export interface FrameQueryLayout {
  readonly spaceCount: number;
  readonly spaces: number;
  readonly viewCount: number;
  readonly viewState: number;
  readonly views: number;
  readonly actionCount: number;
  readonly actions: number;
  /** Floats the output needs. */
  readonly length: number;
}

/** 'xrLocateSpaces' (OpenXR 1.1), 'xrLocateSpace' (a native loop), or 'none' (no spaces in the list). */
export type FrameQueryLocatePath = 'xrLocateSpaces' | 'xrLocateSpace' | 'none';

type BoundQuery = ReturnType<NativeOpenXrAddon['openxrBindFrameQuery']>;

interface NativeArguments {
  readonly spaces: NativeSpace[];
  readonly bases: NativeSpace[];
  readonly views: { readonly space: NativeSpace; readonly viewConfigurationType: number; readonly viewCount: number } | null;
  readonly actions: NativeFrameQueryAction[];
  readonly allowLocateSpaces: boolean;
}

export class FrameQuery {
  readonly session: Session;
  readonly layout: FrameQueryLayout;
  readonly #args: NativeArguments;
  // The bound native query and the output it writes (rebound when another output is passed); one
  // native function runs every query, so the call in run() keeps one target.
  readonly #runNative: NativeOpenXrAddon['openxrRunFrameQuery'] = loadOpenXrAddon().openxrRunFrameQuery;
  #bound: BoundQuery;
  #out: Float32Array;
  #outLength: number;
  // The wait thread's binding (session.setWaitFrameQuery): the same list bound to a back buffer of
  // its own, which nothing outside this class ever sees.
  #waitThread: BoundQuery['query'] | undefined;

  /** @internal Use session.createFrameQuery(). */
  constructor(session: Session, options: FrameQueryOptions) {
    if (typeof options !== 'object' || options === null) throw invalidArgument('createFrameQuery(options): options', '{ spaces?, views?, actions?, out? }', options);
    this.session = session;
    this.#args = nativeArguments(session, options);
    const { spaces, views, actions } = this.#args;
    const viewCount = views === null ? 0 : views.viewCount;
    const viewState = views === null ? -1 : spaces.length * FRAME_SPACE_FLOATS;
    const actionStart = spaces.length * FRAME_SPACE_FLOATS + (views === null ? 0 : 1 + viewCount * VIEW_FLOATS);
    this.layout = Object.freeze({
      spaceCount: spaces.length,
      spaces: 0,
      viewCount,
      viewState,
      views: views === null ? -1 : viewState + 1,
      actionCount: actions.length,
      actions: actionStart,
      length: actionStart + actions.length * FRAME_ACTION_FLOATS,
    });
    const out = options.out ?? new Float32Array(this.layout.length);
    this.#bound = this.#bind(out);
    this.#out = out;
    this.#outLength = out.length;
  }

  /** Floats the output needs (layout.length). */
  get length(): number {
    return this.layout.length;
  }

  /** The output run() writes when called without one. */
  get out(): Float32Array {
    return this.#out;
  }

  /** How the spaces are located: 'xrLocateSpaces' on an OpenXR 1.1 instance whose runtime has it, else 'xrLocateSpace'. */
  get locatePath(): FrameQueryLocatePath {
    return this.#bound.locatePath;
  }

  /** Offset of spaces[i]'s pose in the output (its flags follow at + 7). */
  spaceOffset(i: number): number {
    return this.layout.spaces + i * FRAME_SPACE_FLOATS;
  }

  /** Offset of view i's pose in the output (its fov follows at + 7). */
  viewOffset(i: number): number {
    return this.layout.views + i * VIEW_FLOATS;
  }

  /** Offset of actions[i]'s four floats in the output. */
  actionOffset(i: number): number {
    return this.layout.actions + i * FRAME_ACTION_FLOATS;
  }

  /**
   * Locates every space, the views and reads every action state at `time` (XrTime in ns, e.g. the
   * frame's predictedDisplayTime) in one native call, writing `out` (default: query.out) as the
   * layout says. Allocates nothing: keep passing the same array (another one rebinds the query).
   * A destroyed handle in the list throws OpenXrError XR_ERROR_HANDLE_INVALID naming its entry; a
   * runtime failure throws its XrResult, and the output then holds the results before it.
   */
  run(time: bigint | number, out: Float32Array = this.#out): void {
    if (out !== this.#out || out.length !== this.#outLength) {
      this.#bound = this.#bind(out);
      this.#out = out;
      this.#outLength = out.length;
    }
    try {
      this.#runNative(this.#bound.query, time);
    } catch (error) {
      rethrowNative(error);
    }
  }

  /**
   * @internal The native query the session's wait thread runs, bound to its own output (the back
   * buffer: never handed out, so JavaScript never reads what the thread writes).
   */
  waitThreadQuery(): BoundQuery['query'] {
    this.#waitThread ??= this.#bind(new Float32Array(this.layout.length)).query;
    return this.#waitThread;
  }

  #bind(out: Float32Array): BoundQuery {
    if (!(out instanceof Float32Array)) throw invalidArgument('frame query: out', 'a Float32Array', out);
    if (out.length < this.layout.length) {
      throw new InvalidArgumentError(`frame query: out must have at least ${this.layout.length} elements (see query.layout; a detached buffer has none), got ${out.length}`, 'out');
    }
    const { spaces, bases, views, actions, allowLocateSpaces } = this.#args;
    const native = nativeSessionOf(this.session);
    const api = instanceState(this.session.instance).api;
    return callNative(() => api.openxrBindFrameQuery(native, spaces, bases, views, actions, out, allowLocateSpaces));
  }
}

function liveSpace(space: unknown, what: string): NativeSpace {
  if (!(space instanceof Space)) throw invalidArgument(`frame query: ${what}`, 'a Space', space);
  if (space.isDestroyed) throw handleDestroyed(`frame query's ${what}`);
  return nativeSpaceOf(space, what);
}

function nativeArguments(session: Session, options: FrameQueryOptions): NativeArguments {
  const spaces: NativeSpace[] = [];
  const bases: NativeSpace[] = [];
  const list = options.spaces ?? [];
  if (!Array.isArray(list)) throw invalidArgument('frame query: spaces', 'an array of { space, base } or [space, base]', list);
  list.forEach((entry: FrameQuerySpace | readonly [Space, Space], i: number) => {
    const pair = Array.isArray(entry) ? { space: entry[0] as unknown, base: entry[1] as unknown } : (entry as FrameQuerySpace | null);
    if (typeof pair !== 'object' || pair === null) throw invalidArgument(`frame query: spaces[${i}]`, '{ space, base } or [space, base]', pair);
    spaces.push(liveSpace(pair.space, `spaces[${i}].space`));
    bases.push(liveSpace(pair.base, `spaces[${i}].base`));
  });
  let views: NativeArguments['views'] = null;
  if (options.views !== undefined) {
    if (typeof options.views !== 'object' || options.views === null) throw invalidArgument('frame query: views', '{ space, viewConfigurationType? }', options.views);
    const name = options.views.viewConfigurationType ?? 'primary-stereo';
    const viewConfigurationType = enumValue(VIEW_CONFIGURATION_TYPES, name, 'views.viewConfigurationType');
    views = { space: liveSpace(options.views.space, 'views.space'), viewConfigurationType, viewCount: session.viewCount(name) };
  }
  const actionList = options.actions ?? [];
  if (!Array.isArray(actionList)) throw invalidArgument('frame query: actions', 'an array of Action or { action, subactionPath }', actionList);
  const actions = actionList.map((entry: Action | FrameQueryAction, i: number): NativeFrameQueryAction => {
    const e = typeof entry === 'object' && entry !== null && 'action' in entry ? entry : { action: entry as Action };
    const nativeAction = (() => {
      try {
        return nativeActionOf(e.action);
      } catch {
        throw invalidArgument(`frame query: actions[${i}]`, 'an Action or { action, subactionPath }', entry);
      }
    })();
    if (e.action.isDestroyed) throw handleDestroyed(`frame query's actions[${i}].action`);
    if (e.action.type === 'vibration') {
      throw new OpenXrError('XR_ERROR_ACTION_TYPE_MISMATCH', `frame query: actions[${i}] (${e.action.name}) is a vibration output; a query reads boolean, float, vector2f and pose actions`);
    }
    const path = e.subactionPath === undefined ? undefined : pathOf(session.instance, e.subactionPath);
    return path === undefined ? { action: nativeAction } : { action: nativeAction, subactionPath: path };
  });
  const locateWith = options.locateWith ?? 'auto';
  if (locateWith !== 'auto' && locateWith !== 'xrLocateSpace') throw invalidArgument('frame query: locateWith', "'auto' or 'xrLocateSpace'", locateWith);
  return { spaces, bases, views, actions, allowLocateSpaces: locateWith === 'auto' };
}
