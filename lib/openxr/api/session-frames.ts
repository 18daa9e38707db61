// A Session's frames: what waitFrame() answers, the projection layers endFrame() submits, and
// the two per-frame calls bound once and reused (locateViews' view locator, endFrame's layers).
// Session (session.ts) keeps one of each and delegates to them.
import type { Instance } from './instance.js';
import { callNative, instanceState } from './handles.js';
import { rethrowNative } from '../errors.js';
import { loadOpenXrAddon, type NativeBound, type NativeOpenXrAddon, type NativeProjectionLayer, type NativeSession } from '../native/addon.js';
import { nativeSpaceOf, type Space } from './space.js';
import type { Session } from './session.js';
import { Swapchain } from '../vulkan/swapchain.js';
import { ENVIRONMENT_BLEND_MODES, VIEW_CONFIGURATION_TYPES, VIEW_FLOATS, enumName, enumValue, type EnvironmentBlendModeName, type ViewConfigurationTypeName, type XrTime } from './types.js';
import { InvalidArgumentError, InvalidStateError, invalidArgument } from '../../core/errors.js';

/**
 * What waitFrame() answers. The same object every frame (per session), updated in place: copy
 * the fields you keep beyond the frame.
 */
export interface FrameState {
  /** XrTime in ns (CLOCK_MONOTONIC), a bigint: past 104 days of uptime it no longer fits a number exactly. */
  readonly predictedDisplayTime: XrTime;
  /** ns. */
  readonly predictedDisplayPeriod: number;
  readonly shouldRender: boolean;
}

/** A pose as [px, py, pz, qx, qy, qz, qw]. */
export type PoseArray = readonly [number, number, number, number, number, number, number] | Float32Array;

/** An XrFovf: radians, left and down negative. */
export interface Fov {
  readonly angleLeft: number;
  readonly angleRight: number;
  readonly angleUp: number;
  readonly angleDown: number;
}

/** One eye's image of a projection layer (XrCompositionLayerProjectionView). */
export interface ProjectionView {
  /** The pose the image was rendered from, in the layer's space. */
  readonly pose: PoseArray;
  /** Its field of view: an Fov, or [angleLeft, angleRight, angleUp, angleDown] (e.g. a subarray of locateViews' output). */
  readonly fov: Fov | readonly [number, number, number, number] | Float32Array;
  readonly swapchain: Swapchain;
  /** Default: the whole image. */
  readonly imageRect?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** The array layer of the swapchain image. Default 0. */
  readonly arrayIndex?: number;
  /**
   * The view's depth (XR_KHR_composition_layer_depth, which the instance must enable): an
   * XrCompositionLayerDepthInfoKHR chained to the view. The runtime checks its values (OpenXR
   * spec, 'XR_KHR_composition_layer_depth').
   */
  readonly depth?: ProjectionViewDepth;
}

/** XrCompositionLayerDepthInfoKHR: a depth swapchain's sub-image and how its values map to distances. */
export interface ProjectionViewDepth {
  /** A swapchain of a depth format (session.depthSwapchainFormats()), created with 'depth-stencil-attachment' usage. */
  readonly swapchain: Swapchain;
  /** Default: the whole image. */
  readonly imageRect?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** Default 0. */
  readonly arrayIndex?: number;
  /** The range of depth values the image holds, in [0, 1], minDepth < maxDepth. Default 0 and 1. */
  readonly minDepth?: number;
  readonly maxDepth?: number;
  /** Positive distances in metres of minDepth and maxDepth (nearZ > farZ for reversed depth; either may be Infinity). */
  readonly nearZ: number;
  readonly farZ: number;
}

export interface ProjectionLayer {
  readonly type: 'projection';
  readonly space: Space;
  readonly views: readonly ProjectionView[];
}

export interface EndFrameOptions {
  /** Default: the begun frame's predictedDisplayTime, exactly as the runtime gave it. */
  readonly displayTime?: XrTime | number;
  readonly environmentBlendMode?: EnvironmentBlendModeName;
  /**
   * Composition layers (a session with graphics). The layers' structures are built natively once
   * and reused while the spaces, swapchains, rectangles and array indices stay the same; each call
   * copies only the poses and fields of view.
   */
  readonly layers?: readonly ProjectionLayer[];
}

/** @internal locateViews' native call, bound to a space, an output array and a view configuration, and rebound when they change. */
export class ViewLocator {
  readonly #session: Session;
  readonly #native: NativeSession;
  // The one native function of its per-frame kind (every session's calls keep one target).
  readonly #locateViewsNative: NativeOpenXrAddon['openxrLocateViews'] = loadOpenXrAddon().openxrLocateViews;
  // The bound view locator and what it was bound to.
  #locator: NativeBound<'viewLocator'> | undefined;
  #space: Space | undefined;
  #out: Float32Array | undefined;
  #length = -1;
  #type = 0;

  constructor(session: Session, native: NativeSession) {
    this.#session = session;
    this.#native = native;
  }

  /** Drops the bound call (the session is destroyed). */
  release(): void {
    this.#locator = undefined;
    this.#space = undefined;
    this.#out = undefined;
  }

  locate(space: Space, time: XrTime | number, out: Float32Array, type: number): number {
    if (space !== this.#space || out !== this.#out || out.length !== this.#length || type !== this.#type) {
      this.#bind(space, out, type);
    }
    try {
      return this.#locateViewsNative(this.#locator as NativeBound<'viewLocator'>, time);
    } catch (error) {
      rethrowNative(error);
    }
  }

  #bind(space: Space, out: Float32Array, type: number): void {
    const nativeSpace = nativeSpaceOf(space);
    if (!(out instanceof Float32Array)) throw invalidArgument('out', 'a Float32Array', out);
    const name = enumName(VIEW_CONFIGURATION_TYPES, type) as ViewConfigurationTypeName;
    const count = this.#session.viewCount(name);
    if (out.length < count * VIEW_FLOATS) {
      throw new InvalidArgumentError(`out must have at least ${count * VIEW_FLOATS} elements (${VIEW_FLOATS} per view; a detached buffer has none), got ${out.length}`, 'out');
    }
    this.#locator = callNative(() => this.#native.bindViewLocator(nativeSpace, type, count, out));
    this.#space = space;
    this.#out = out;
    this.#length = out.length;
    this.#type = type;
  }
}

/**
 * @internal endFrame with layers: the bound native call, what it was bound to (flattened: per
 * layer the space and view count, per view the swapchain, rectangle and array index), and its
 * pose data.
 */
export class EndFrameBinding {
  readonly #instance: Instance;
  readonly #native: NativeSession;
  readonly #endFrameNative: NativeOpenXrAddon['openxrEndFrame'] = loadOpenXrAddon().openxrEndFrame;
  #bound: NativeBound<'endFrame'> | undefined;
  #key: unknown[] = [];
  #blend = -1;
  #data = new Float32Array(0);

  constructor(instance: Instance, native: NativeSession) {
    this.#instance = instance;
    this.#native = native;
  }

  /** Drops the bound call (the session is destroyed). */
  release(): void {
    this.#bound = undefined;
    this.#key = [];
  }

  end(options: EndFrameOptions, layers: readonly ProjectionLayer[]): void {
    const blend = options.environmentBlendMode === undefined ? 1 : enumValue(ENVIRONMENT_BLEND_MODES, options.environmentBlendMode, 'environmentBlendMode');
    if (!Array.isArray(layers)) throw invalidArgument('endFrame: layers', 'an array of projection layers', layers);
    if (this.#bound === undefined || blend !== this.#blend || !this.#sameLayerShape(layers)) this.#bind(layers, blend);
    // Poses and fields of view, 11 floats per view (as locateViews writes them).
    const data = this.#data;
    let o = 0;
    // Index loops: for-of would allocate an iterator per loop until the function is optimised.
    for (let l = 0; l < layers.length; l++) {
      const layerViews = (layers[l] as ProjectionLayer).views;
      for (let v = 0; v < layerViews.length; v++) {
        const view = layerViews[v] as ProjectionView;
        const pose = view.pose;
        // Float32Array to Float32Array: a copy that boxes no number, even before the JIT optimises this.
        if (pose instanceof Float32Array && pose.length === 7) data.set(pose, o);
        else if ((Array.isArray(pose) || pose instanceof Float32Array) && pose.length >= 7) for (let i = 0; i < 7; i++) data[o + i] = pose[i] as number;
        else throw invalidArgument(`endFrame: layers[${l}].views[${v}].pose`, '[px, py, pz, qx, qy, qz, qw]', pose);
        const fov = view.fov;
        if (fov instanceof Float32Array && fov.length === 4) data.set(fov, o + 7);
        else if ((fov instanceof Float32Array || Array.isArray(fov)) && fov.length >= 4) {
          for (let i = 0; i < 4; i++) data[o + 7 + i] = (fov as ArrayLike<number>)[i] as number;
        } else if (typeof fov === 'object' && fov !== null && !Array.isArray(fov) && !(fov instanceof Float32Array)) {
          const f = fov as Fov;
          data[o + 7] = f.angleLeft;
          data[o + 8] = f.angleRight;
          data[o + 9] = f.angleUp;
          data[o + 10] = f.angleDown;
        } else {
          throw invalidArgument(`endFrame: layers[${l}].views[${v}].fov`, '{ angleLeft, angleRight, angleUp, angleDown } or 4 numbers', fov);
        }
        o += 11;
      }
    }
    if (Number.isNaN(data[0]) || Number.isNaN(data[o - 1])) throw new InvalidArgumentError('endFrame: each view needs a pose (7 numbers) and a fov (4 numbers), got NaN in one', 'layers');
    try {
      this.#endFrameNative(this.#bound as NativeBound<'endFrame'>, options.displayTime);
    } catch (error) {
      rethrowNative(error);
    }
  }

  // True when `layers` has the structure the bound call was built for (compared in place: no
  // allocation). Anything malformed is "not the same": #bind then checks it and names what is wrong.
  #sameLayerShape(layers: readonly ProjectionLayer[]): boolean {
    const key = this.#key;
    let k = 0;
    for (let l = 0; l < layers.length; l++) {
      const layer = layers[l] as ProjectionLayer;
      if (typeof layer !== 'object' || layer === null || !Array.isArray(layer.views)) return false;
      if (key[k++] !== layer.space || key[k++] !== layer.views.length) return false;
      for (let v = 0; v < layer.views.length; v++) {
        const view = layer.views[v] as ProjectionView;
        if (typeof view !== 'object' || view === null) return false;
        const r = view.imageRect;
        if (r !== undefined && (typeof r !== 'object' || r === null)) return false;
        if (key[k++] !== view.swapchain || key[k++] !== (view.arrayIndex ?? 0)) return false;
        if (key[k++] !== (r === undefined ? 0 : r.x) || key[k++] !== (r === undefined ? 0 : r.y)) return false;
        if (key[k++] !== (r === undefined ? view.swapchain.width : r.width) || key[k++] !== (r === undefined ? view.swapchain.height : r.height)) return false;
        const d = view.depth;
        if (key[k++] !== (d !== undefined)) return false;
        if (d !== undefined) {
          if (typeof d !== 'object' || d === null) return false;
          const dr = d.imageRect;
          if (dr !== undefined && (typeof dr !== 'object' || dr === null)) return false;
          if (key[k++] !== d.swapchain || key[k++] !== (d.arrayIndex ?? 0) || key[k++] !== (d.minDepth ?? 0) || key[k++] !== (d.maxDepth ?? 1)) return false;
          if (key[k++] !== d.nearZ || key[k++] !== d.farZ) return false;
          if (key[k++] !== (dr === undefined ? 0 : dr.x) || key[k++] !== (dr === undefined ? 0 : dr.y)) return false;
          if (key[k++] !== (dr === undefined ? d.swapchain.width : dr.width) || key[k++] !== (dr === undefined ? d.swapchain.height : dr.height)) return false;
        }
      }
    }
    return k === key.length;
  }

  // A view's depth, checked (what the runtime checks of the values is left to it) and pushed onto the layer shape's key.
  #depth(d: ProjectionViewDepth, name: string, key: unknown[]): NonNullable<NativeProjectionLayer['views'][number]['depth']> {
    if (typeof d !== 'object' || d === null) throw invalidArgument(name, '{ swapchain, nearZ, farZ, minDepth?, maxDepth?, imageRect?, arrayIndex? }', d);
    if (!this.#instance.enabledExtensionNames.includes('XR_KHR_composition_layer_depth')) {
      throw new InvalidStateError(`${name}: a projection view's depth needs XR_KHR_composition_layer_depth, which this instance did not enable (enabledExtensionNames)`);
    }
    if (!(d.swapchain instanceof Swapchain)) throw invalidArgument(`${name}.swapchain`, 'a Swapchain (of a depth format)', d.swapchain);
    const minDepth = d.minDepth ?? 0;
    const maxDepth = d.maxDepth ?? 1;
    for (const [member, value] of [['minDepth', minDepth], ['maxDepth', maxDepth], ['nearZ', d.nearZ], ['farZ', d.farZ]] as const) {
      if (typeof value !== 'number') throw invalidArgument(`${name}.${member}`, 'a number', value);
    }
    const r = d.imageRect ?? { x: 0, y: 0, width: d.swapchain.width, height: d.swapchain.height };
    const arrayIndex = d.arrayIndex ?? 0;
    key.push(d.swapchain, arrayIndex, minDepth, maxDepth, d.nearZ, d.farZ, r.x, r.y, r.width, r.height);
    return { swapchain: d.swapchain.native, x: r.x, y: r.y, width: r.width, height: r.height, arrayIndex, minDepth, maxDepth, nearZ: d.nearZ, farZ: d.farZ };
  }

  #bind(layers: readonly ProjectionLayer[], blend: number): void {
    const key: unknown[] = [];
    const native: NativeProjectionLayer[] = layers.map((layer, l) => {
      if (typeof layer !== 'object' || layer === null || layer.type !== 'projection') throw invalidArgument(`endFrame: layers[${l}]`, "{ type: 'projection', space, views }", layer);
      if (!Array.isArray(layer.views) || layer.views.length === 0) throw invalidArgument(`endFrame: layers[${l}].views`, 'a non-empty array', layer.views);
      key.push(layer.space, layer.views.length);
      return {
        space: nativeSpaceOf(layer.space),
        views: layer.views.map((view, v) => {
          if (!(view.swapchain instanceof Swapchain)) throw invalidArgument(`endFrame: layers[${l}].views[${v}].swapchain`, 'a Swapchain', view.swapchain);
          const fov = view.fov as unknown;
          const pose = view.pose as unknown;
          if (!((Array.isArray(pose) || pose instanceof Float32Array) && (pose as ArrayLike<number>).length >= 7)) {
            throw invalidArgument(`endFrame: layers[${l}].views[${v}].pose`, '[px, py, pz, qx, qy, qz, qw]', pose);
          }
          if (typeof fov !== 'object' || fov === null || !('angleLeft' in fov || (fov as ArrayLike<number>).length >= 4)) {
            throw invalidArgument(`endFrame: layers[${l}].views[${v}].fov`, '{ angleLeft, angleRight, angleUp, angleDown } or 4 numbers', fov);
          }
          const r = view.imageRect ?? { x: 0, y: 0, width: view.swapchain.width, height: view.swapchain.height };
          const arrayIndex = view.arrayIndex ?? 0;
          key.push(view.swapchain, arrayIndex, r.x, r.y, r.width, r.height, view.depth !== undefined);
          const depth = view.depth === undefined ? undefined : this.#depth(view.depth, `endFrame: layers[${l}].views[${v}].depth`, key);
          return { swapchain: view.swapchain.native, x: r.x, y: r.y, width: r.width, height: r.height, arrayIndex, ...(depth === undefined ? {} : { depth }) };
        }),
      };
    });
    const data = new Float32Array(native.reduce((n, layer) => n + layer.views.length, 0) * VIEW_FLOATS);
    const s = instanceState(this.#instance);
    this.#bound = callNative(() => s.api.openxrBindEndFrame(this.#native, native, blend, data));
    this.#data = data;
    this.#key = key;
    this.#blend = blend;
  }
}
