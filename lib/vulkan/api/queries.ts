// Query pools and events of the typed Vulkan API (docs/usage.md, 'Queries and events'): owned by
// their device (destroyed with it), their results and status read back, and what the recording
// checks need to know of them (a query's type and count).
import { InvalidArgumentError, InvalidStateError, describeValue } from '../../core/errors.js';
import { toVulkanError, withVulkanErrors } from '../errors.js';
import { vulkanCompute } from '../native/addon.js';
import { checkUint as uint, DeviceChild, type DeviceOwner } from './device-objects.js';

/** The query types the typed API creates pools of (VkQueryType). */
export const QUERY_TYPES = { occlusion: 0, timestamp: 2 } as const;
export type QueryType = keyof typeof QUERY_TYPES;

export interface QueryPoolOptions {
  readonly queryType: QueryType;
  /** Queries in the pool (at least 1). */
  readonly queryCount: number;
}

export interface QueryResultOptions {
  /** VK_QUERY_RESULT_WAIT_BIT: wait until every result is available (default false). */
  readonly wait?: boolean;
}

// VkQueryResultFlagBits
const RESULT_WAIT = 0x2;

/** A VkQueryPool of occlusion or timestamp queries. */
export class QueryPool extends DeviceChild {
  protected readonly kind = 'VkQueryPool';
  readonly queryType: QueryType;
  readonly queryCount: number;
  // Queries a recording reset (per call, or in an encoder's walk) since the pool was created: one never reset is not unavailable yet.
  readonly #everReset: Uint8Array;
  /** @internal */
  constructor(device: DeviceOwner, options: QueryPoolOptions) {
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError(`createQueryPool(options): options must be an object, got ${describeValue(options)}`, 'options');
    const type = options.queryType;
    if (type !== 'occlusion' && type !== 'timestamp') throw new InvalidArgumentError(`createQueryPool: options.queryType must be 'occlusion' or 'timestamp', got ${describeValue(type)}`, 'options.queryType');
    uint('options.queryCount', options.queryCount);
    // VUID-VkQueryPoolCreateInfo-queryCount-02763
    if (options.queryCount === 0) throw new InvalidArgumentError('createQueryPool: options.queryCount must be at least 1, got 0', 'options.queryCount');
    super(device, withVulkanErrors(() => vulkanCompute().createQueryPool(device.liveHandle, QUERY_TYPES[type], options.queryCount, 0)));
    this.queryType = type;
    this.queryCount = options.queryCount;
    this.#everReset = new Uint8Array(options.queryCount);
  }

  /** @internal A recording resets queries [first, first + count). */
  markReset(first: number, count: number): void {
    this.#everReset.fill(1, first, first + count);
  }

  /** @internal Whether any recording has reset `query` since the pool was created. */
  wasReset(query: number): boolean {
    return this.#everReset[query] === 1;
  }

  /** @internal InvalidArgumentError unless queries [first, first + count) are in the pool (count above 0). */
  checkRange(what: string, first: number, count: number): void {
    uint('firstQuery', first);
    uint('queryCount', count);
    if (count === 0 || first + count > this.queryCount) throw new InvalidArgumentError(`${what}: queries [${first}, ${first + count}) must lie inside the pool's ${this.queryCount}, queryCount above 0`, 'queryCount');
  }

  /**
   * vkGetQueryPoolResults of queries [first, first + count) as 64-bit values (occlusion: samples
   * passed; timestamp: ticks of timestampPeriod nanoseconds), or null when one is not available
   * yet (VK_NOT_READY). `wait`: block until they are.
   */
  getResults(first = 0, count?: number, options: QueryResultOptions = {}): BigUint64Array | null {
    this.live();
    // The default count only from a number: a bigint or other value is refused by checkRange, not a TypeError here.
    if (count === undefined) count = typeof first === 'number' ? this.queryCount - first : 0;
    this.checkRange('getResults', first, count);
    if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('getResults: options must be an object', 'options');
    const out = new BigUint64Array(count);
    let ready: boolean;
    try {
      ready = this.native.queryPoolResults(this.device.liveHandle, this.handle, first, count, options.wait === true ? RESULT_WAIT : 0, out);
    } catch (error) {
      throw toVulkanError(error);
    }
    return ready ? out : null;
  }

  protected release(): void {
    this.native.destroy(this.device.liveHandle, 'queryPool', this.handle);
  }
}

/**
 * A VkEvent. Named VulkanEvent, not Event: a named or `import *` import would shadow the global
 * Event (as VulkanBuffer leaves Node's Buffer alone).
 */
export class VulkanEvent extends DeviceChild {
  protected readonly kind = 'VkEvent';
  /** @internal */
  constructor(device: DeviceOwner) {
    super(device, withVulkanErrors(() => vulkanCompute().createEvent(device.liveHandle)));
  }

  /** vkGetEventStatus: true when set. */
  get signaled(): boolean {
    this.live();
    return withVulkanErrors(() => this.native.eventStatus(this.device.liveHandle, this.handle));
  }

  /** vkSetEvent from the host. */
  set(): void {
    this.#host(true);
  }

  /** vkResetEvent from the host. */
  reset(): void {
    this.#host(false);
  }

  #host(set: boolean): void {
    this.live();
    // VUID-vkResetEvent-event-03821 / vkSetEvent: not while a submitted command that uses it runs.
    this.device.checkNotInUse(this, set ? 'set()' : 'reset()');
    withVulkanErrors(() => this.native.setEvent(this.device.liveHandle, this.handle, set));
  }

  protected release(): void {
    this.native.destroy(this.device.liveHandle, 'event', this.handle);
  }
}

/** What the query checks read and set of a command buffer's recording state. */
export interface QueryState {
  readonly rendering: number;
  activeQueryPool: QueryPool | null;
  activeQuery: number;
  /** The rendering (0, 1 dynamic rendering, 2 a render pass) the active query began in. */
  activeQueryRendering: number;
  /** Per pool this recording touched, per query: 1 reset in it, 2 begun or written since (0 neither). */
  readonly queryMarks: Map<QueryPool, Uint8Array>;
  /** timestampValidBits of the command buffer's queue family (undefined: not known). */
  readonly timestampBits: number | undefined;
}

// VkQueryResultFlagBits: 64_BIT, WAIT, WITH_AVAILABILITY, PARTIAL
const KNOWN_RESULT_FLAGS = 0xf;
const RESULT_64 = 0x1;
const RESULT_AVAILABILITY = 0x4;
const RESULT_PARTIAL = 0x8;
// VkPipelineStageFlagBits of Vulkan 1.0 (TOP_OF_PIPE ... ALL_COMMANDS) and HOST.
const KNOWN_STAGES = 0x1ffff;
const STAGE_HOST = 0x4000;
// VkPipelineStageFlagBits2 of Vulkan 1.3: those of 1.0 and COPY ... PRE_RASTERIZATION_SHADERS (bits 32-38).
export const KNOWN_STAGES2 = 0x7f_0001_ffffn;

function marksOf(st: QueryState, pool: QueryPool): Uint8Array {
  let marks = st.queryMarks.get(pool);
  if (marks === undefined) {
    marks = new Uint8Array(pool.queryCount);
    st.queryMarks.set(pool, marks);
  }
  return marks;
}

/**
 * A query begun or written must be unavailable (VUID-vkCmdBeginQuery-None-00807,
 * VUID-vkCmdWriteTimestamp-None-00830): reset since its last use. What one recording can know:
 * a query used earlier in this recording and not reset since, or one no recording has reset since
 * the pool was created, is refused (a reset recorded in another command buffer counts, whether or
 * not it was submitted first).
 */
function useQuery(st: QueryState, what: string, pool: QueryPool, query: number): void {
  const marks = marksOf(st, pool);
  if (marks[query] === 2) throw new InvalidStateError(`${what}: query ${query} of the pool was used earlier in this recording and not reset since (resetQueryPool first: a query is written once per reset)`);
  if (marks[query] === 0 && !pool.wasReset(query)) throw new InvalidStateError(`${what}: query ${query} of the pool was never reset since the pool was created (resetQueryPool first, in this recording or an earlier one)`);
  marks[query] = 2;
}

function outside(st: QueryState, what: string): void {
  if (st.rendering !== 0) throw new InvalidStateError(`${what}: inside a render pass or dynamic rendering (VUID-${what}-renderpass: end it first)`);
}

/** vkCmdResetQueryPool: outside rendering (-renderpass), the range in the pool (-firstQuery-09436/-09437), not over the active query (-None-02841). */
export function checkResetQueryPool(st: QueryState, what: string, pool: QueryPool, first: number, count: number): void {
  outside(st, what);
  pool.checkRange(what, first, count);
  if (st.activeQueryPool === pool && st.activeQuery >= first && st.activeQuery < first + count) throw new InvalidStateError(`${what}: query ${st.activeQuery} of the pool is active (end it first)`);
  marksOf(st, pool).fill(1, first, first + count);
  pool.markReset(first, count);
}

/** vkCmdBeginQuery: an occlusion pool (VUID-vkCmdBeginQuery-queryType-02804: not timestamps), the query in it (-query-00802), flags 0 (PRECISE needs occlusionQueryPrecise, which the typed API does not enable: -queryType-00800), no other occlusion query active (-queryPool-01922). */
export function checkBeginQuery(st: QueryState, what: string, pool: QueryPool, query: number, flags: number): void {
  if (pool.queryType !== 'occlusion') throw new InvalidArgumentError(`${what}: queryPool is a pool of ${pool.queryType} queries (write those with writeTimestamp); begin an occlusion query`, 'queryPool');
  pool.checkRange(what, query, 1);
  if (flags !== 0) throw new InvalidArgumentError(`${what}: flags must be 0 (VK_QUERY_CONTROL_PRECISE_BIT needs the occlusionQueryPrecise feature, which the typed API does not enable), got ${describeValue(flags)}`, 'flags');
  if (st.activeQueryPool !== null) throw new InvalidStateError(`${what}: occlusion query ${st.activeQuery} is active (end it first: one query of a type at a time)`);
  useQuery(st, what, pool, query);
  st.activeQueryPool = pool;
  st.activeQuery = query;
  st.activeQueryRendering = st.rendering;
}

/** vkCmdEndQuery: the query active (VUID-vkCmdEndQuery-None-01923), in the rendering it began in (-None-07007). */
export function checkEndQuery(st: QueryState, what: string, pool: QueryPool, query: number): void {
  pool.checkRange(what, query, 1);
  if (st.activeQueryPool !== pool || st.activeQuery !== query) throw new InvalidStateError(`${what}: query ${query} of the pool is not active (begin it first)`);
  if (st.activeQueryRendering !== st.rendering) throw new InvalidStateError(`${what}: the query began ${st.activeQueryRendering === 0 ? 'outside' : 'inside'} a render pass or dynamic rendering and must end there`);
  st.activeQueryPool = null;
}

/**
 * vkCmdWriteTimestamp(2): a timestamp pool (VUID-vkCmdWriteTimestamp-queryPool-01416), the query in
 * it (-query-04904), one pipeline stage (-pipelineStage-04074 and kin; VUID-vkCmdWriteTimestamp2-stage-03859:
 * one VkPipelineStageFlagBits2 for the synchronization2 form, `stage` a bigint), a queue family that
 * writes timestamps (-timestampValidBits-00829), the query reset since its last use.
 */
export function checkWriteTimestamp(st: QueryState, what: string, pool: QueryPool, query: number, stage: number | bigint): void {
  if (pool.queryType !== 'timestamp') throw new InvalidArgumentError(`${what}: queryPool must be a pool of timestamp queries, it holds ${pool.queryType} queries`, 'queryPool');
  pool.checkRange(what, query, 1);
  if (typeof stage === 'bigint') {
    if (stage === 0n || (stage & (stage - 1n)) !== 0n || (stage & KNOWN_STAGES2) !== stage) throw new InvalidArgumentError(`${what}: stage must be one VkPipelineStageFlagBits2 of Vulkan 1.3, got 0x${stage.toString(16)}`, 'stage');
  } else {
    uint('pipelineStage', stage);
    if (stage === 0 || (stage & (stage - 1)) !== 0 || (stage & KNOWN_STAGES) !== stage) throw new InvalidArgumentError(`${what}: pipelineStage must be one VkPipelineStageFlagBits of Vulkan 1.0, got 0x${stage.toString(16)}`, 'pipelineStage');
  }
  if (st.timestampBits === 0) throw new InvalidStateError(`${what}: the command buffer's queue family writes no timestamps (its timestampValidBits is 0)`);
  useQuery(st, what, pool, query);
}

/**
 * vkCmdCopyQueryPoolResults: outside rendering (-renderpass), the range in the pool, known flags and
 * no PARTIAL for timestamps (-queryType-09439), the buffer backed (-dstBuffer-00826) with
 * TRANSFER_DST usage (-dstBuffer-00825), offset and stride multiples of 4 (8 for 64-bit results:
 * -flags-00822/-00823), every result inside it (-dstBuffer-00824).
 */
export function checkCopyQueryPoolResults(st: QueryState, what: string, pool: QueryPool, first: number, count: number, buffer: { readonly size: number | bigint; checkBacked(what: string): void; checkUsage(what: string, usage: number, name: string): void }, offset: number | bigint, stride: number | bigint, flags: number): void {
  outside(st, what);
  pool.checkRange(what, first, count);
  // VUID-vkCmdCopyQueryPoolResults-None-07429: no query it copies is active.
  if (st.activeQueryPool === pool && st.activeQuery >= first && st.activeQuery < first + count) throw new InvalidStateError(`${what}: query ${st.activeQuery} of the pool is active (end it first)`);
  uint('flags', flags);
  if ((flags & ~KNOWN_RESULT_FLAGS) !== 0) throw new InvalidArgumentError(`${what}: flags must be VkQueryResultFlags (bits of 0xf), got 0x${flags.toString(16)}`, 'flags');
  if (pool.queryType === 'timestamp' && (flags & RESULT_PARTIAL) !== 0) throw new InvalidArgumentError(`${what}: VK_QUERY_RESULT_PARTIAL_BIT is not allowed with timestamp queries`, 'flags');
  buffer.checkBacked(`${what}: dstBuffer`);
  buffer.checkUsage(what, 0x2, 'dstBuffer');
  const word = (flags & RESULT_64) !== 0 ? 8n : 4n;
  const o = BigInt(offset);
  const s = BigInt(stride);
  if (o % word !== 0n || s % word !== 0n) throw new InvalidArgumentError(`${what}: dstOffset ${o} and stride ${s} must be multiples of ${word}`, 'stride');
  const one = word * ((flags & RESULT_AVAILABILITY) !== 0 ? 2n : 1n);
  if (o + BigInt(count - 1) * s + one > BigInt(buffer.size)) throw new InvalidArgumentError(`${what}: ${count} result(s) of ${one} bytes, ${s} apart from offset ${o}, go past the buffer's size ${buffer.size}`, 'dstBuffer');
}

/** vkCmdSetEvent / vkCmdResetEvent: outside rendering (-renderpass), a stage mask of known stages, not 0 and without HOST (-stageMask-01149/-01153 and kin). */
export function checkEventCommand(st: QueryState, what: string, stageMask: number): void {
  outside(st, what);
  uint('stageMask', stageMask);
  if (stageMask === 0 || (stageMask & ~KNOWN_STAGES) !== 0 || (stageMask & STAGE_HOST) !== 0) throw new InvalidArgumentError(`${what}: stageMask must name Vulkan 1.0 pipeline stages other than HOST, got 0x${stageMask.toString(16)}`, 'stageMask');
}

/** vkCmdResetEvent2 and vkCmdSetEvent2's source stages: outside rendering (-renderpass), stages of Vulkan 1.3 without HOST (VUID-vkCmdResetEvent2-stageMask-03830, VUID-vkCmdSetEvent2-srcStageMask-09391). */
export function checkEventCommand2(st: QueryState, what: string, name: string, stageMask: bigint): void {
  outside(st, what);
  if ((stageMask & ~KNOWN_STAGES2) !== 0n || (stageMask & BigInt(STAGE_HOST)) !== 0n) throw new InvalidArgumentError(`${what}: ${name} must name Vulkan 1.3 pipeline stages other than HOST, got 0x${stageMask.toString(16)}`, name);
}

/** At the end of a render pass or dynamic rendering: no query begun inside it still active (VUID-vkCmdEndRendering-None-06999, VUID-vkCmdEndRenderPass-None-07004). */
export function checkNoQueryBegunInside(st: QueryState, what: string): void {
  if (st.activeQueryPool !== null && st.activeQueryRendering !== 0) throw new InvalidStateError(`${what}: occlusion query ${st.activeQuery} began inside it and is still active (endQuery() first)`);
}

/** At the end of a recording: no query left active (VUID-vkEndCommandBuffer-commandBuffer-00061). */
export function checkNoActiveQuery(st: QueryState, what: string): void {
  if (st.activeQueryPool !== null) throw new InvalidStateError(`${what}: occlusion query ${st.activeQuery} is still active (end it first)`);
}
