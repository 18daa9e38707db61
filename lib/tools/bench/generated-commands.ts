// The generated bindings' cost per call beside the hand-written typed API, for the same command on
// the same instance of the simulated runtime: xrGetActionStateFloat, xrLocateSpace and
// xrGetSystemProperties. The generated path marshals plain objects through the tables on every
// call and returns fresh objects; the hand-written one is bound once and writes into reused storage.
import type { Instance } from '../../openxr/api/instance.js';
import { POSE_FLOATS } from '../../openxr/api/types.js';
import { openXrCommands } from '../../openxr/commands.js';
import type { MeasurePlan } from './measure-native.js';
import { timeJsLoop } from './measure-js.js';
import type { Summary } from './stats.js';

export interface GeneratedBenchRow {
  readonly command: 'xrGetActionStateFloat' | 'xrLocateSpace' | 'xrGetSystemProperties';
  /** What the hand-written side calls. */
  readonly handWrittenCall: string;
  readonly handWritten: Summary;
  readonly generated: Summary;
}

/** The three commands both ways on a headless session of `instance` (XR_MND_headless enabled); the session is destroyed after. */
export function measureGeneratedBesideHandWritten(instance: Instance, time: number, plan: MeasurePlan): GeneratedBenchRow[] {
  const xr = openXrCommands(instance);
  const system = instance.getSystem();
  const actionSet = instance.createActionSet({ name: 'bench', localizedName: 'bench' });
  const trigger = actionSet.createAction({ name: 'trigger', type: 'float', localizedName: 'trigger' });
  const session = instance.createSession(system, { headless: true });
  try {
    session.attachActionSets([actionSet]);
    const local = session.createReferenceSpace('local');
    const view = session.createReferenceSpace('view');
    const out = new Float32Array(POSE_FLOATS);
    const getInfo = { action: trigger.handle, subactionPath: 0n };
    const sessionHandle = session.handle;
    const viewHandle = view.handle;
    const localHandle = local.handle;
    const instanceHandle = instance.handle;
    const systemId = system.id;
    return [
      {
        command: 'xrGetActionStateFloat',
        handWrittenCall: 'action.getFloat(undefined, session)',
        handWritten: timeJsLoop(plan, () => trigger.getFloat(undefined, session)),
        generated: timeJsLoop(plan, () => xr.xrGetActionStateFloat(sessionHandle, getInfo)),
      },
      {
        command: 'xrLocateSpace',
        handWrittenCall: 'space.locate(base, time, out)',
        handWritten: timeJsLoop(plan, (i) => view.locate(local, time + i, out)),
        generated: timeJsLoop(plan, (i) => xr.xrLocateSpace(viewHandle, localHandle, time + i)),
      },
      {
        command: 'xrGetSystemProperties',
        handWrittenCall: 'system.getProperties()',
        handWritten: timeJsLoop(plan, () => system.getProperties()),
        generated: timeJsLoop(plan, () => xr.xrGetSystemProperties(instanceHandle, systemId)),
      },
    ];
  } finally {
    session.destroy();
    actionSet.destroy();
  }
}

/** The rows as a Markdown table: ns per call each way and the ratio. */
export function formatGeneratedBench(rows: readonly GeneratedBenchRow[]): string[] {
  const ns = (s: Summary): string => `${s.median.toFixed(0)} ± ${((s.relativeIqr * s.median) / 2).toFixed(0)}`;
  return [
    '| command | hand-written (typed API) | ns/call | generated bindings, ns/call | generated ÷ hand-written |',
    '| --- | --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| \`${r.command}\` | \`${r.handWrittenCall}\` | ${ns(r.handWritten)} | ${ns(r.generated)} | ${(r.generated.median / r.handWritten.median).toFixed(1)}× |`),
  ];
}
