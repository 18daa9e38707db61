// Types the public API needs from Node, declared here so that the published declarations compile
// without @types/node (and against every version of it): a TypeScript user who does not install
// @types/node, or has a newer one than this package was built with, still gets the whole API.
// At run time these are Node's own objects (node:events' EventEmitter, the global AbortSignal).
import { EventEmitter } from 'node:events';

/** Event name -> the arguments its listeners receive. */
export type EventMap<Events> = { [E in keyof Events]: unknown[] };

/** The listener of `event`. */
export type EventListener<Events extends EventMap<Events>, E extends keyof Events> = (...args: Events[E]) => void;

/**
 * The event API of the package's emitters (a `Session`, `loaderLog`): node:events' EventEmitter
 * methods, typed by the events the emitter sends. The object is an EventEmitter at run time.
 */
export interface TypedEventEmitter<Events extends EventMap<Events>> {
  on<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  addListener<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  once<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  prependListener<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  prependOnceListener<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  off<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  removeListener<E extends keyof Events>(event: E, listener: EventListener<Events, E>): this;
  removeAllListeners(event?: keyof Events): this;
  listenerCount(event: keyof Events): number;
  listeners<E extends keyof Events>(event: E): EventListener<Events, E>[];
  eventNames(): (keyof Events)[];
  setMaxListeners(n: number): this;
  getMaxListeners(): number;
  /** @internal The package sends the events; listeners only receive them. */
  emit<E extends keyof Events>(event: E, ...args: Events[E]): boolean;
}

/** node:events' EventEmitter as a base class whose instances are TypedEventEmitter<Events>. */
export function typedEventEmitterClass<Events extends EventMap<Events>>(): new () => TypedEventEmitter<Events> {
  return EventEmitter as unknown as new () => TypedEventEmitter<Events>;
}

/** A new node:events EventEmitter typed as TypedEventEmitter<Events>. */
export function typedEventEmitter<Events extends EventMap<Events>>(): TypedEventEmitter<Events> {
  return new EventEmitter() as unknown as TypedEventEmitter<Events>;
}

/** What the package reads of an AbortSignal: the global AbortSignal (an AbortController's `signal`) is one. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
