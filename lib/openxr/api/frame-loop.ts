// runFrameLoop(): the standard OpenXR session lifecycle around a frame callback. Polls events
// each frame (so the session's 'stateChanged' fires), begins the session when it is 'ready', runs
// waitFrame → beginFrame → onFrame → endFrame while it runs, ends it on 'stopping' and returns on
// 'exiting' or 'loss-pending'. Stopping early (duration, signal) requests exit and lets the
// lifecycle finish, as an application should.
//
// Real runtimes differ in a headless session: Monado's xrWaitFrame (no compositor) returns at once
// with predictedDisplayTime 0 and does not count the wait, so its xrBeginFrame is refused. The
// loop then paces itself with a timer at the display rate, takes frame times from
// xrConvertTimespecTimeToTimeKHR when the instance enabled it, skips begin/end frame when the
// runtime refuses them, and reports the mode it ran in (stats.mode).
//
// A runtime whose xrWaitFrame returns at once with advancing display times would make the loop
// spin (tens of thousands of frames a second, a core at 100 %): when a wait returns less than
// half a predicted period after the previous frame's, the loop sleeps to the next period itself
// (mode.pacing 'timer', frame times still the runtime's; docs/usage.md, "Frame loop").
//
// Without frame times (predictedDisplayTime 0 and no XR_KHR_convert_timespec_time) the loop throws
// before the first onFrame: a frame at time 0 cannot be located or ended.
//
// With a frame query (options.frameQuery), the session's wait thread runs it right after each
// xrWaitFrame, at that frame's display time, so onFrame finds query.out written (docs/usage.md,
// "Reads done before JavaScript wakes"); a frame the runtime gave no time runs it here, at the
// time the loop gives the frame.
import type { AbortSignalLike } from '../../core/portable-types.js';
import { OpenXrError } from '../errors.js';
import type { ActiveActionSet, EndFrameOptions, FrameState, ProjectionLayer, Session } from './session.js';
import type { ActionSet } from './action.js';
import type { FrameQuery } from './frame-query.js';
import type { ViewConfigurationTypeName, XrTime } from './types.js';
import { UnavailableError, invalidArgument } from '../../core/errors.js';
import { drainEvents } from './events.js';

export interface FrameLoopOptions {
  /**
   * Called for every frame the runtime wants rendered, between beginFrame and endFrame. A session
   * with graphics returns the frame's composition layers (return the same array every frame, its
   * views updated in place, and ending the frame allocates nothing).
   */
  readonly onFrame: (frame: FrameState, session: Session) => void | readonly ProjectionLayer[];
  readonly viewConfigurationType?: ViewConfigurationTypeName;
  /** Request exit after this long (ms) of frames. */
  readonly durationMs?: number;
  /** Request exit when aborted. */
  readonly signal?: AbortSignalLike;
  /** Time beginFrame and endFrame (performance.now() around each; its cost is included). */
  readonly timeCalls?: boolean;
  /**
   * The display rate for timer pacing, when xrWaitFrame gives no display period (default 90 Hz).
   * Ignored while the runtime paces the loop.
   */
  readonly displayRateHz?: number;
  /**
   * A frame query of this session, run before onFrame on the session's wait thread right after
   * xrWaitFrame returns, at the frame's predictedDisplayTime: onFrame finds `frameQuery.out`
   * written and spends no time reading (session.setWaitFrameQuery; docs/usage.md, "Reads done
   * before JavaScript wakes"). Detached when the loop returns.
   */
  readonly frameQuery?: FrameQuery;
  /** With frameQuery: xrSyncActions of these action sets first, on the same thread, each frame. */
  readonly syncActions?: readonly (ActionSet | ActiveActionSet)[];
}

/** How the loop ran. */
export interface FrameLoopMode {
  /**
   * 'runtime': xrWaitFrame paced the loop with real predicted display times. 'timer': it answered
   * at once, with predictedDisplayTime 0 (a headless session without a compositor) or with
   * display times a period apart but without blocking, so a timer at the display rate paced the
   * loop (with frameTimes 'wait-frame', the runtime's times and period).
   */
  readonly pacing: 'runtime' | 'timer';
  /**
   * Where onFrame's predictedDisplayTime came from: the runtime's xrWaitFrame, or the runtime's
   * xrConvertTimespecTimeToTimeKHR (now + one display period). With neither, runFrameLoop throws
   * before the first onFrame.
   */
  readonly frameTimes: 'wait-frame' | 'convert-timespec';
  /** False when the loop skipped xrBeginFrame and xrEndFrame; beginEndFrameSkipped says why. */
  readonly beginEndFrame: boolean;
  /**
   * 'refused': the runtime refused xrBeginFrame after a wait that did not pace
   * (XR_ERROR_CALL_ORDER_INVALID).
   */
  readonly beginEndFrameSkipped?: 'refused';
  /** The rate frames ran at: 1e9 / the runtime's period, or the timer's rate. */
  readonly displayRateHz: number;
  /**
   * Where displayRateHz came from: xrWaitFrame's period, the runtime's XR_FB_display_refresh_rate
   * (when the instance enabled it), the displayRateHz option, or the 90 Hz default.
   */
  readonly displayRateSource: 'wait-frame' | 'XR_FB_display_refresh_rate' | 'option' | 'default';
}

export interface FrameLoopStats {
  /** Frames waited (and begun and ended, unless mode.beginEndFrame is false). */
  readonly frames: number;
  /** Frames with shouldRender (onFrame was called). */
  readonly rendered: number;
  /** Display periods skipped between consecutive frames (the application was late). */
  readonly missed: number;
  /** ns: the runtime's, or the timer's period. */
  readonly displayPeriod: number;
  /** ms from the first frame to the last. */
  readonly elapsedMs: number;
  /** With timeCalls: mean ns per beginFrame and endFrame call (absent when they were skipped). */
  readonly nsPerBeginFrame?: number;
  readonly nsPerEndFrame?: number;
  /** How the loop ran (undefined when no frame was waited). */
  readonly mode: FrameLoopMode | undefined;
  /**
   * With frameQuery: the frames whose query the wait thread ran, and those the loop ran on the
   * JavaScript thread (the runtime gave the frame no display time).
   */
  readonly frameQueryRuns?: { readonly waitThread: number; readonly javaScriptThread: number };
}

const DEFAULT_DISPLAY_RATE_HZ = 90;
/** Consecutive waits shorter than half a period that make the loop pace itself. */
const SHORT_WAITS_BEFORE_TIMER = 3;

/** One line naming the mode, for logs and the demo. */
export function describeFrameLoopMode(mode: FrameLoopMode | undefined): string {
  if (mode === undefined) return 'no frames';
  const source = { 'wait-frame': "xrWaitFrame's period", XR_FB_display_refresh_rate: 'XR_FB_display_refresh_rate', option: 'the displayRateHz option', default: 'the default rate' }[mode.displayRateSource];
  const rate = `${Number(mode.displayRateHz.toFixed(2))} Hz (${source})`;
  const pacing =
    mode.pacing === 'runtime'
      ? `paced by xrWaitFrame at ${rate}`
      : `paced by a timer at ${rate}: xrWaitFrame did not pace (${mode.frameTimes === 'wait-frame' ? 'it returned at once' : 'predictedDisplayTime 0'})`;
  const times = { 'wait-frame': 'frame times from xrWaitFrame', 'convert-timespec': 'frame times from xrConvertTimespecTimeToTimeKHR' }[mode.frameTimes];
  const beginEnd = mode.beginEndFrame ? 'xrBeginFrame/xrEndFrame each frame' : 'xrBeginFrame/xrEndFrame skipped (the runtime refused them)';
  return `${pacing}; ${times}; ${beginEnd}`;
}

function isCallOrderInvalid(error: unknown): boolean {
  return error instanceof OpenXrError && error.result === 'XR_ERROR_CALL_ORDER_INVALID';
}

/** The frame state the loop hands onFrame when it paces itself (one object, updated in place). */
interface TimedFrame {
  predictedDisplayTime: XrTime;
  predictedDisplayPeriod: number;
  shouldRender: boolean;
}

/** The options' fields checked before the first frame: a bad one is an InvalidArgumentError (the promise rejects), never a TypeError from inside the loop. */
function checkFrameLoopOptions(options: FrameLoopOptions): void {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'an object with onFrame', options);
  const { onFrame, durationMs, signal, timeCalls, displayRateHz } = options;
  if (typeof onFrame !== 'function') throw invalidArgument('options.onFrame', 'a function', onFrame);
  if (durationMs !== undefined && (typeof durationMs !== 'number' || !(durationMs >= 0))) throw invalidArgument('options.durationMs', 'a number of milliseconds >= 0', durationMs);
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')) throw invalidArgument('options.signal', 'an AbortSignal', signal);
  if (timeCalls !== undefined && typeof timeCalls !== 'boolean') throw invalidArgument('options.timeCalls', 'a boolean', timeCalls);
  if (displayRateHz !== undefined && (typeof displayRateHz !== 'number' || !Number.isFinite(displayRateHz) || displayRateHz <= 0)) throw invalidArgument('options.displayRateHz', 'a positive finite number of Hz', displayRateHz);
}

export async function runFrameLoop(session: Session, options: FrameLoopOptions): Promise<FrameLoopStats> {
  checkFrameLoopOptions(options);
  const query = options.frameQuery;
  if (query === undefined) return frameLoop(session, options, undefined);
  if (options.syncActions !== undefined && !Array.isArray(options.syncActions)) throw invalidArgument('options.syncActions', 'an array of ActionSet or { actionSet, subactionPath }', options.syncActions);
  session.setWaitFrameQuery(query, options.syncActions === undefined ? {} : { syncActions: options.syncActions });
  try {
    return await frameLoop(session, options, query);
  } finally {
    if (!session.isDestroyed) session.setWaitFrameQuery(undefined);
  }
}

function frameLoop(session: Session, options: FrameLoopOptions, query: FrameQuery | undefined): Promise<FrameLoopStats> {
  return new Promise<FrameLoopStats>((resolve, reject) => new FrameLoop(session, options, query, resolve, reject).start());
}

/**
 * One run of the loop, as a state machine rather than an async function: the wait is answered by a
 * native callback (session._waitFrameCallback) and the pacing by setTimeout, so a runtime-paced
 * frame allocates no promise, no await closure and no boxed number in a suspended function's
 * frame (docs/performance.md, 'The frame loop's young generation'). The steps and their order are
 * those of the loop written out: poll, lifecycle, wait, pace, begin, query, onFrame, end.
 */
class FrameLoop {
  readonly #session: Session;
  readonly #instance: Session['instance'];
  readonly #options: FrameLoopOptions;
  readonly #query: FrameQuery | undefined;
  readonly #resolve: (stats: FrameLoopStats) => void;
  readonly #reject: (error: unknown) => void;
  readonly #timeCalls: boolean;
  #settled = false;
  #queryOnWaitThread = 0;
  #queryOnJsThread = 0;
  #frames = 0;
  #rendered = 0;
  #missed = 0;
  #period = 0;
  #periodMs = 0;
  #lastDisplayTime = 0n;
  #firstFrameAt = -1;
  #lastFrameAt = 0;
  #exitRequested = false;
  #beginMs = 0;
  #endMs = 0;
  #beginEndFrames = 0;
  #mode: FrameLoopMode | undefined;
  // Timer pacing: the next deadline (performance.now() ms).
  #nextDeadline = 0;
  // Runtime pacing: when the last xrWaitFrame returned (performance.now() ms; 0 before the first).
  #lastWaitAt = 0;
  #shortWaits = 0;
  // The frame being run: what the wait answered, and whether the wait thread ran the query for it.
  #waited: FrameState | undefined;
  #queried = false;
  // The frame state handed to onFrame when the loop paces itself (one object, updated in place).
  readonly #timed: TimedFrame = { predictedDisplayTime: 0n, predictedDisplayPeriod: 0, shouldRender: false };
  // endFrame's options for frames with layers: one object, updated each frame.
  readonly #withLayers: { displayTime: XrTime | undefined; layers: readonly ProjectionLayer[] } = { displayTime: undefined, layers: [] };
  // The continuations, bound once: a closure per frame would allocate.
  readonly #topStep = (): void => {
    try {
      this.#top();
    } catch (error) {
      this.#fail(error);
    }
  };
  readonly #waitedStep = (error: unknown, waited: FrameState | undefined): void => {
    try {
      if (error !== null) throw this.#session._waitFrameError(error);
      this.#pace(waited as FrameState);
    } catch (e) {
      this.#fail(e);
    }
  };
  readonly #pacedStep = (): void => {
    try {
      this.#run(-1);
    } catch (error) {
      this.#fail(error);
    }
  };

  constructor(session: Session, options: FrameLoopOptions, query: FrameQuery | undefined, resolve: (stats: FrameLoopStats) => void, reject: (error: unknown) => void) {
    this.#session = session;
    this.#instance = session.instance;
    this.#options = options;
    this.#query = query;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#timeCalls = options.timeCalls === true;
  }

  start(): void {
    this.#topStep();
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#reject(error);
  }

  // Events and the lifecycle, until a wait (or the idle timer) is under way or the loop is done.
  #top(): void {
    const session = this.#session;
    const options = this.#options;
    for (;;) {
      drainEvents(this.#instance);
      const state = session.state;
      if (state === 'exiting' || state === 'loss-pending') {
        this.#finish();
        return;
      }
      if (state === 'ready' && !session.isRunning) session.beginSession(options.viewConfigurationType ?? 'primary-stereo');
      if (state === 'stopping' && session.isRunning) {
        session.endSession();
        continue;
      }
      if (!this.#exitRequested && session.isRunning) {
        const timeUp = options.durationMs !== undefined && this.#firstFrameAt >= 0 && performance.now() - this.#firstFrameAt >= options.durationMs;
        if (timeUp || options.signal?.aborted === true) {
          session.requestExit();
          this.#exitRequested = true;
          continue;
        }
      }
      if (!session.isRunning) {
        setTimeout(this.#topStep, 2); // idle, waiting for the runtime to say 'ready'
        return;
      }
      session._waitFrameCallback(this.#waitedStep);
      return;
    }
  }

  // The frame's pacing, from what xrWaitFrame answered: on, or after a sleep to the next period.
  #pace(waited: FrameState): void {
    let now = -1;
    const mode = (this.#mode ??= chooseMode(this.#session, waited, this.#options));
    this.#waited = waited;
    // The wait thread ran the query when the runtime gave the frame a time (session.setWaitFrameQuery).
    this.#queried = this.#query !== undefined && waited.predictedDisplayTime !== 0n;
    if (mode.frameTimes !== 'wait-frame') {
      // Sleep to the next display period; when late, skip the periods that passed.
      this.#period = 1e9 / mode.displayRateHz;
      const periodMs = (this.#periodMs = this.#period / 1e6);
      const now = performance.now();
      if (this.#nextDeadline === 0) this.#nextDeadline = now;
      else if (now > this.#nextDeadline + periodMs) {
        const late = Math.floor((now - this.#nextDeadline) / periodMs);
        this.#missed += late;
        this.#nextDeadline += late * periodMs;
      }
      if (this.#nextDeadline > now) {
        setTimeout(this.#pacedStep, this.#nextDeadline - now);
        return;
      }
    } else {
      this.#period = waited.predictedDisplayPeriod;
      const periodMs = (this.#periodMs = this.#period / 1e6);
      if (periodMs > 0) {
        now = performance.now();
        // Waits coming back less than half a period after the last one, several in a row: xrWaitFrame
        // does not block. (One alone is a late frame: a blocking runtime's next wait still ends at
        // its next period, which may be soon.)
        if (mode.pacing === 'runtime' && this.#lastWaitAt !== 0) {
          this.#shortWaits = now - this.#lastWaitAt < periodMs / 2 ? this.#shortWaits + 1 : 0;
          if (this.#shortWaits >= SHORT_WAITS_BEFORE_TIMER) this.#mode = { ...mode, pacing: 'timer' };
        }
        if (this.#mode.pacing === 'timer') {
          if (this.#nextDeadline === 0 || now > this.#nextDeadline + periodMs) this.#nextDeadline = now;
          if (this.#nextDeadline > now) {
            setTimeout(this.#pacedStep, this.#nextDeadline - now);
            return;
          }
        }
      }
    }
    this.#run(now);
  }

  // The paced frame: its time, begin, the query on this thread when the wait thread could not, onFrame, end.
  // `paceNow`: #pace's clock reading when no sleep came between (performance.now() ms), else -1.
  // An argument, not a field: reading a number field boxes it anew until V8 optimizes the function.
  #run(paceNow: number): void {
    const session = this.#session;
    const query = this.#query;
    const waited = this.#waited as FrameState;
    let mode = this.#mode as FrameLoopMode;
    let frame: FrameState = waited;
    if (mode.frameTimes !== 'wait-frame') {
      this.#nextDeadline += this.#periodMs;
      const timed = this.#timed;
      timed.predictedDisplayPeriod = this.#period;
      timed.predictedDisplayTime = this.#instance.monotonicNowAsXrTime() + BigInt(Math.round(this.#period));
      // No runtime frame state to say so: render while the session is visible or focused.
      timed.shouldRender = session.state === 'visible' || session.state === 'focused';
      frame = timed;
    } else {
      if (this.#periodMs > 0) {
        if (mode.pacing === 'timer') this.#nextDeadline += this.#periodMs;
        this.#lastWaitAt = paceNow < 0 ? performance.now() : paceNow;
      }
      const period = this.#period;
      if (this.#lastDisplayTime !== 0n && period > 0) this.#missed += Math.max(0, Math.round(Number(waited.predictedDisplayTime - this.#lastDisplayTime) / period) - 1);
      this.#lastDisplayTime = waited.predictedDisplayTime;
    }
    // One clock reading a frame where no sleep came between (a boxed number each, until V8 optimizes).
    const now = paceNow < 0 ? performance.now() : paceNow;
    if (this.#firstFrameAt < 0) this.#firstFrameAt = now;
    this.#lastFrameAt = now;
    const timeCalls = this.#timeCalls;
    let began = false;
    if (mode.beginEndFrame) {
      try {
        const t0 = timeCalls ? performance.now() : 0;
        session.beginFrame();
        if (timeCalls) this.#beginMs += performance.now() - t0;
        began = true;
      } catch (error) {
        // A runtime that did not count a non-pacing wait refuses the frame: stop asking.
        if (mode.frameTimes === 'wait-frame' || !isCallOrderInvalid(error)) throw error;
        mode = this.#mode = { ...mode, beginEndFrame: false, beginEndFrameSkipped: 'refused' };
      }
    }
    if (query !== undefined) {
      if (this.#queried) this.#queryOnWaitThread++;
      else if (frame.shouldRender) {
        // No time from the runtime, so none the wait thread could read at: here, at the frame's.
        if (this.#options.syncActions !== undefined) session.syncActions(this.#options.syncActions);
        query.run(frame.predictedDisplayTime);
        this.#queryOnJsThread++;
      }
    }
    let layers: void | readonly ProjectionLayer[] = undefined;
    if (frame.shouldRender) {
      layers = this.#options.onFrame(frame, session);
      this.#rendered++;
    }
    if (began) {
      const t0 = timeCalls ? performance.now() : 0;
      // Paced by the timer, the frame ends at the time the loop gave it (the runtime gave none).
      if (layers !== undefined && layers.length > 0) {
        const withLayers = this.#withLayers;
        withLayers.displayTime = mode.frameTimes !== 'wait-frame' ? frame.predictedDisplayTime : undefined;
        withLayers.layers = layers;
        session.endFrame(withLayers as EndFrameOptions);
      } else if (mode.frameTimes !== 'wait-frame') session.endFrame({ displayTime: frame.predictedDisplayTime });
      else session.endFrame();
      if (timeCalls) this.#endMs += performance.now() - t0;
      this.#beginEndFrames++;
    }
    this.#frames++;
    this.#top();
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settled = true;
    const timeCalls = this.#timeCalls;
    const query = this.#query;
    const beginEndFrames = this.#beginEndFrames;
    this.#resolve({
      frames: this.#frames,
      rendered: this.#rendered,
      missed: this.#missed,
      displayPeriod: this.#period,
      elapsedMs: this.#firstFrameAt < 0 ? 0 : this.#lastFrameAt - this.#firstFrameAt,
      ...(timeCalls && beginEndFrames > 0 ? { nsPerBeginFrame: (this.#beginMs * 1e6) / beginEndFrames, nsPerEndFrame: (this.#endMs * 1e6) / beginEndFrames } : {}),
      mode: this.#mode,
      ...(query === undefined ? {} : { frameQueryRuns: { waitThread: this.#queryOnWaitThread, javaScriptThread: this.#queryOnJsThread } }),
    });
  }
}

/** The mode, from the first waited frame: does xrWaitFrame pace, and where do frame times come from. */
function chooseMode(session: Session, first: FrameState, options: FrameLoopOptions): FrameLoopMode {
  if (first.predictedDisplayTime !== 0n) {
    return { pacing: 'runtime', frameTimes: 'wait-frame', beginEndFrame: true, displayRateHz: 1e9 / first.predictedDisplayPeriod, displayRateSource: 'wait-frame' };
  }
  const [displayRateHz, displayRateSource] = timerRate(session, first, options);
  if (!session.instance.enabledExtensionNames.includes('XR_KHR_convert_timespec_time')) {
    // A frame at time 0 can be neither located (XR_ERROR_TIME_INVALID) nor ended: say so before the first onFrame.
    throw new UnavailableError(
      'runFrameLoop: xrWaitFrame gives no display times (predictedDisplayTime 0: a headless session without a compositor) and the instance did not ' +
        'enable XR_KHR_convert_timespec_time, which gives them from the runtime\'s clock. Enable it where the runtime offers it ' +
        '(loader.enumerateInstanceExtensionProperties()); loader.createInstance() enables it along with XR_MND_headless when offered',
    );
  }
  return { pacing: 'timer', frameTimes: 'convert-timespec', beginEndFrame: true, displayRateHz, displayRateSource };
}

/** The system's display rate as far as the runtime tells it, else the option, else 90 Hz. */
function timerRate(session: Session, first: FrameState, options: FrameLoopOptions): [number, FrameLoopMode['displayRateSource']] {
  if (first.predictedDisplayPeriod > 0) return [1e9 / first.predictedDisplayPeriod, 'wait-frame'];
  if (session.instance.enabledExtensionNames.includes('XR_FB_display_refresh_rate')) {
    const { current, available } = session.displayRefreshRates();
    const rate = current > 0 ? current : Math.max(0, ...available);
    if (rate > 0) return [rate, 'XR_FB_display_refresh_rate'];
  }
  if (options.displayRateHz !== undefined) {
    if (!(options.displayRateHz > 0 && Number.isFinite(options.displayRateHz))) throw invalidArgument('options.displayRateHz', 'a positive finite number of Hz', options.displayRateHz);
    return [options.displayRateHz, 'option'];
  }
  return [DEFAULT_DISPLAY_RATE_HZ, 'default'];
}
