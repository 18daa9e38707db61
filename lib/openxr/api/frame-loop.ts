// runFrameLoop(): the standard OpenXR session lifecycle around a frame callback. Polls events
// each frame (so the session's 'stateChanged' fires), begins the session when it is 'ready', runs
// waitFrame → beginFrame → onFrame → endFrame while it runs, ends it on 'stopping' and returns on
// 'exiting' or 'loss-pending'. Stopping early (duration, signal) requests exit and lets the
// lifecycle finish, as an application should.
import { setTimeout as delay } from 'node:timers/promises';
import type { FrameState, Session } from './session.js';
import type { ViewConfigurationTypeName } from './types.js';

export interface FrameLoopOptions {
  /** Called for every frame the runtime wants rendered, between beginFrame and endFrame. */
  readonly onFrame: (frame: FrameState, session: Session) => void;
  readonly viewConfigurationType?: ViewConfigurationTypeName;
  /** Request exit after this long (ms) of frames. */
  readonly durationMs?: number;
  /** Request exit when aborted. */
  readonly signal?: AbortSignal;
  /** Time beginFrame and endFrame (performance.now() around each; its cost is included). */
  readonly timeCalls?: boolean;
}

export interface FrameLoopStats {
  /** Frames waited, begun and ended. */
  readonly frames: number;
  /** Frames with shouldRender (onFrame was called). */
  readonly rendered: number;
  /** Display periods skipped between consecutive frames (the application was late). */
  readonly missed: number;
  /** ns, from the runtime. */
  readonly displayPeriod: number;
  /** ms from the first frame to the last. */
  readonly elapsedMs: number;
  /** With timeCalls: mean ns per beginFrame and endFrame call. */
  readonly nsPerBeginFrame?: number;
  readonly nsPerEndFrame?: number;
}

export async function runFrameLoop(session: Session, options: FrameLoopOptions): Promise<FrameLoopStats> {
  const instance = session.instance;
  let frames = 0;
  let rendered = 0;
  let missed = 0;
  let period = 0;
  let lastDisplayTime = 0;
  let firstFrameAt: number | undefined;
  let lastFrameAt = 0;
  let exitRequested = false;
  let beginMs = 0;
  let endMs = 0;
  const timeCalls = options.timeCalls === true;
  for (;;) {
    instance.pollEvents();
    const state = session.state;
    if (state === 'exiting' || state === 'loss-pending') break;
    if (state === 'ready' && !session.isRunning) session.beginSession(options.viewConfigurationType ?? 'primary-stereo');
    if (state === 'stopping' && session.isRunning) {
      session.endSession();
      continue;
    }
    if (!exitRequested && session.isRunning) {
      const timeUp = options.durationMs !== undefined && firstFrameAt !== undefined && performance.now() - firstFrameAt >= options.durationMs;
      if (timeUp || options.signal?.aborted === true) {
        session.requestExit();
        exitRequested = true;
        continue;
      }
    }
    if (!session.isRunning) {
      await delay(2); // idle, waiting for the runtime to say 'ready'
      continue;
    }
    const frame = await session.waitFrame();
    const now = performance.now();
    firstFrameAt ??= now;
    lastFrameAt = now;
    period = frame.predictedDisplayPeriod;
    if (lastDisplayTime !== 0 && period > 0) missed += Math.max(0, Math.round((frame.predictedDisplayTime - lastDisplayTime) / period) - 1);
    lastDisplayTime = frame.predictedDisplayTime;
    if (timeCalls) {
      const t0 = performance.now();
      session.beginFrame();
      beginMs += performance.now() - t0;
    } else {
      session.beginFrame();
    }
    if (frame.shouldRender) {
      options.onFrame(frame, session);
      rendered++;
    }
    if (timeCalls) {
      const t0 = performance.now();
      session.endFrame();
      endMs += performance.now() - t0;
    } else {
      session.endFrame();
    }
    frames++;
  }
  return {
    frames,
    rendered,
    missed,
    displayPeriod: period,
    elapsedMs: firstFrameAt === undefined ? 0 : lastFrameAt - firstFrameAt,
    ...(timeCalls && frames > 0 ? { nsPerBeginFrame: (beginMs * 1e6) / frames, nsPerEndFrame: (endMs * 1e6) / frames } : {}),
  };
}
