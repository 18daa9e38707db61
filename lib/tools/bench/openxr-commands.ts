// The OpenXR commands `khronos-loader bench openxr` can time, and what each figure means.
import { InvalidArgumentError } from '../../core/errors.js';

export type BenchCommandName = 'xrLocateSpace' | 'xrLocateViews' | 'xrGetActionStateBoolean' | 'xrSyncActions' | 'xrWaitFrame';

export interface BenchCommand {
  readonly name: BenchCommandName;
  /** 'call': a tight loop of calls; 'frame': xrWaitFrame + xrBeginFrame + xrEndFrame at the display rate. */
  readonly kind: 'call' | 'frame';
  /** What one timed unit is, for the report. */
  readonly measures: string;
  /** Default calls (or frames) per timed run. */
  readonly defaultIterations: number;
  /** True when the JavaScript API has a per-call form to time beside the native loop (and koffi a C form). */
  readonly hasJsForm: boolean;
}

export const BENCH_COMMANDS: readonly BenchCommand[] = [
  {
    name: 'xrLocateSpace',
    kind: 'call',
    measures: 'ns per xrLocateSpace (VIEW in LOCAL, an XrSpaceLocation out)',
    defaultIterations: 1_000_000,
    hasJsForm: true,
  },
  {
    name: 'xrLocateViews',
    kind: 'call',
    measures: 'ns per xrLocateViews (PRIMARY_STEREO in LOCAL, two XrView out)',
    defaultIterations: 1_000_000,
    hasJsForm: false,
  },
  {
    name: 'xrGetActionStateBoolean',
    kind: 'call',
    measures: 'ns per xrGetActionStateBoolean (one boolean action bound to /user/hand/left/input/select/click, focused session)',
    defaultIterations: 1_000_000,
    hasJsForm: false,
  },
  {
    name: 'xrSyncActions',
    kind: 'call',
    measures: 'ns per xrSyncActions (one attached action set with one action, focused session)',
    defaultIterations: 300_000,
    hasJsForm: false,
  },
  {
    name: 'xrWaitFrame',
    kind: 'frame',
    measures:
      'per frame (xrWaitFrame + xrBeginFrame + xrEndFrame, no composition layers): wall time, which is the display period the runtime paces to, ' +
      'and the CPU time the calling thread spent (the loader, the layers and the runtime; the wait itself sleeps)',
    defaultIterations: 45,
    hasJsForm: false,
  },
];

export function supportedCommandNames(): string {
  return BENCH_COMMANDS.map((c) => c.name).join(', ');
}

/** The command, or an InvalidArgumentError naming the supported ones. */
export function benchCommand(name: string): BenchCommand {
  const command = BENCH_COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const hint = /^xr(Begin|End)Frame$/.test(name) ? ` (${name} is timed as part of the xrWaitFrame frame)` : '';
  throw new InvalidArgumentError(`command must be one of the commands bench can time (${supportedCommandNames()}), got ${name}${hint}`, 'command');
}
