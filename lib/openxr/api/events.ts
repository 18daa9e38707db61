// OpenXR events: instance.pollEvent() / pollEvents() drain xrPollEvent into typed objects and
// tell each Session (an EventEmitter) what concerns it; instance.events() is the same as an async
// iterator that polls on a timer. Events are consumed once, by whichever of these polls first.
import { setTimeout as delay } from 'node:timers/promises';
import type { AbortSignalLike } from '../../core/portable-types.js';
import type { Instance } from './instance.js';
import { instanceState } from './handles.js';
import { rethrowNative } from '../errors.js';
import type { NativeEvent } from '../native/addon.js';
import { sessionByHandle, type Session } from './session.js';
import { REFERENCE_SPACE_TYPES, SESSION_STATES, enumName, type ReferenceSpaceTypeName, type SessionStateName, type XrTime } from './types.js';

export type OpenXrEvent =
  | { readonly type: 'sessionStateChanged'; readonly session: Session | undefined; readonly state: SessionStateName; readonly time: XrTime }
  | { readonly type: 'instanceLossPending'; readonly lossTime: XrTime }
  | { readonly type: 'interactionProfileChanged'; readonly session: Session | undefined }
  | { readonly type: 'eventsLost'; readonly lostEventCount: number }
  | {
      readonly type: 'referenceSpaceChangePending';
      readonly session: Session | undefined;
      readonly referenceSpaceType: ReferenceSpaceTypeName | number;
      readonly changeTime: XrTime;
      readonly poseValid: boolean;
    }
  | { readonly type: 'other'; readonly structureType: number };

function typed(instance: Instance, e: NativeEvent): OpenXrEvent {
  switch (e.type) {
    case 'sessionStateChanged':
      return { type: e.type, session: sessionByHandle(instance, e.session), state: SESSION_STATES[e.state] ?? 'unknown', time: e.time };
    case 'interactionProfileChanged':
      return { type: e.type, session: sessionByHandle(instance, e.session) };
    case 'referenceSpaceChangePending':
      return {
        type: e.type,
        session: sessionByHandle(instance, e.session),
        referenceSpaceType: enumName(REFERENCE_SPACE_TYPES, e.referenceSpaceType) ?? e.referenceSpaceType,
        changeTime: e.changeTime,
        poseValid: e.poseValid,
      };
    case 'instanceLossPending':
      return { type: e.type, lossTime: e.lossTime };
    case 'eventsLost':
      return { type: e.type, lostEventCount: e.lostEventCount };
    default:
      return { type: 'other', structureType: e.structureType };
  }
}

/** xrPollEvent: the next event, or null. Session events also reach their Session's listeners. */
export function pollEvent(instance: Instance): OpenXrEvent | null {
  const s = instanceState(instance);
  let raw: NativeEvent | null;
  try {
    raw = s.api.openxrPollEvent(s.native); // not callNative(() => ...): no closure per poll
  } catch (error) {
    rethrowNative(error);
  }
  if (raw === null) return null;
  const event = typed(instance, raw);
  if ('session' in event && event.session !== undefined) event.session._dispatch(event);
  return event;
}

/**
 * @internal Polls every queued event (each reaches its Session as pollEvent() delivers it) and
 * returns how many: the frame loop's poll, which builds no array (docs/performance.md, 'The frame
 * loop's young generation').
 */
export function drainEvents(instance: Instance): number {
  let count = 0;
  while (pollEvent(instance) !== null) count++;
  return count;
}

/** Every queued event, in order. */
export function pollEvents(instance: Instance): OpenXrEvent[] {
  const out: OpenXrEvent[] = [];
  for (let e = pollEvent(instance); e !== null; e = pollEvent(instance)) out.push(e);
  return out;
}

export interface EventIteratorOptions {
  /** How long to wait between polls of an empty queue (default 5 ms). */
  readonly intervalMs?: number;
  /** Ends the iteration. */
  readonly signal?: AbortSignalLike;
}

/** Events as an async iterator; ends when the instance is destroyed or `signal` aborts. */
export async function* events(instance: Instance, options: EventIteratorOptions = {}): AsyncGenerator<OpenXrEvent, void, undefined> {
  const interval = options.intervalMs ?? 5;
  while (!instance.isDestroyed && options.signal?.aborted !== true) {
    const e = pollEvent(instance);
    if (e !== null) {
      yield e;
      continue;
    }
    try {
      await delay(interval, undefined, options.signal ? { signal: options.signal as AbortSignal } : {});
    } catch {
      return; // aborted
    }
  }
}
