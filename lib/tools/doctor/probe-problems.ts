// What a probe's outcome means for the report: the problem lines (what, why, fix) and, when the
// library negotiated, what it negotiated.
import { XR_RESULT_CODES } from '../../openxr/errors.js';
import type { ComponentDraft } from './static-checks.js';
import type { ProbeOutcome } from './run-probes.js';
import { componentStatus, type ComponentReport, type NegotiationSummary, type Problem } from './report.js';

const RESULT_NAMES = new Map<number, string>(Object.entries(XR_RESULT_CODES).map(([name, code]) => [code, name]));

/** "returned -6" → "returned NAME (-6)", with the API's result names. */
export function nameResultCodes(reason: string, names: ReadonlyMap<number, string>): string {
  return reason.replace(/returned (-?\d+)/g, (whole, n: string) => {
    const name = names.get(Number(n));
    return name ? `returned ${name} (${n})` : whole;
  });
}

/** "returned -6 instead of XR_SUCCESS" → "returned XR_ERROR_INITIALIZATION_FAILED (-6) instead of XR_SUCCESS". */
export function nameResults(reason: string): string {
  return nameResultCodes(reason, RESULT_NAMES);
}

function what(c: ComponentDraft): string {
  return c.kind === 'runtime' ? 'the runtime' : c.layerKind === 'implicit' ? 'the implicit layer' : 'the layer';
}

/** How to keep a misbehaving library out of the way until it is fixed. */
function workaround(c: ComponentDraft): string {
  if (c.kind === 'runtime') {
    return `switch to another runtime (\`khronos-loader runtimes\` lists them; XR_RUNTIME_JSON or the active_runtime.json link, or createLoader({ runtime }) for one application), or reinstall this one`;
  }
  if (c.layerKind === 'implicit' && c.disableEnvironment) return `set ${c.disableEnvironment}=1 to turn the layer off, or remove ${c.manifestPath}`;
  return `do not enable it (application or XR_ENABLE_API_LAYERS), or remove ${c.manifestPath}`;
}

function field(c: ComponentDraft): string {
  return c.kind === 'runtime' ? 'runtime.library_path' : 'api_layer.library_path';
}

function loadFix(c: ComponentDraft, reason: string): string {
  const lib = c.libraryPath ?? '';
  if (/No such file or directory/.test(reason) && reason.startsWith(lib)) return `install the library, or correct ${field(c)} in ${c.manifestPath}`;
  if (/cannot open shared object file/.test(reason)) return `a library it depends on is missing: \`ldd ${lib}\` shows which; install it`;
  if (/wrong ELF class|ELFCLASS/.test(reason)) return `install the build for this process's architecture, or point ${field(c)} in ${c.manifestPath} at it`;
  if (/undefined symbol|version `.*' not found/.test(reason)) return `a library it depends on is too old or different from the one it was built against: update the component and its dependencies (\`ldd -r ${lib}\`)`;
  return `check the library with \`ldd ${lib}\`, or reinstall the component`;
}

export function probeProblems(c: ComponentDraft, outcome: ProbeOutcome): { problems: Problem[]; negotiated?: NegotiationSummary } {
  const lib = c.libraryPath ?? '';
  switch (outcome.kind) {
    case 'answered': {
      const r = outcome.result;
      const problems: Problem[] = [];
      if (outcome.afterwards) problems.push(afterwardsProblem(what(c), c.name, lib, outcome.afterwards, outcome.output));
      if (r.ok) {
        const negotiated: NegotiationSummary = {
          interfaceVersion: r.interfaceVersion ?? 0,
          apiVersion: r.apiVersion ?? '',
          ...(r.extensions ? { extensions: r.extensions.map((e) => ({ name: e.extensionName, extensionVersion: e.extensionVersion })) } : {}),
          ...(r.runtimeName !== undefined ? { runtimeName: r.runtimeName } : {}),
          ...(r.runtimeVersion !== undefined ? { runtimeVersion: r.runtimeVersion } : {}),
        };
        if (c.manifestApiVersion !== undefined && r.apiVersion !== undefined) {
          const [mMaj, mMin] = c.manifestApiVersion.split('.').map((x) => Number.parseInt(x, 10));
          const [nMaj, nMin] = r.apiVersion.split('.').map((x) => Number.parseInt(x, 10));
          if (mMaj !== nMaj || mMin !== nMin) {
            problems.push({
              severity: 'warning',
              stage: 'negotiate',
              what: `the manifest says api_version ${c.manifestApiVersion}, but the layer negotiated OpenXR ${r.apiVersion}`,
              why: { file: c.manifestPath, field: 'api_layer.api_version', reason: `negotiated ${r.apiVersion}` },
              fix: `set api_layer.api_version in ${c.manifestPath} to "${nMaj}.${nMin}" (what xrEnumerateApiLayerProperties reports comes from the manifest)`,
            });
          }
        }
        // What a runtime that negotiated could still not do: [error, severity, what, fix].
        const afterNegotiation: [string | undefined, Problem['severity'], string, string][] = [
          [r.extensionsError, 'warning', 'the runtime negotiated, but its instance extensions cannot be listed', `report it to the runtime's vendor: xrEnumerateInstanceExtensionProperties must work before an instance exists`],
          [r.instanceError, 'error', 'the runtime negotiated, but an instance cannot be created on it', `check what the runtime needs to start (its service, a device, its configuration); meanwhile ${workaround(c)}`],
        ];
        for (const [error, severity, text, fix] of afterNegotiation) {
          if (error) problems.push({ severity, stage: 'negotiate', what: text, why: { file: lib, reason: nameResults(error) }, fix });
        }
        return { problems, negotiated };
      }
      const reason = nameResults(r.reason);
      if (r.stage === 'load') {
        problems.push({ severity: 'error', stage: 'load', what: `${what(c)}'s library cannot be loaded`, why: { file: lib, field: field(c), reason }, fix: loadFix(c, reason) });
      } else if (r.stage === 'symbol') {
        const symbol = r.symbol ?? '';
        const renamed = c.kind === 'runtime' ? symbol !== 'xrNegotiateLoaderRuntimeInterface' : symbol !== 'xrNegotiateLoaderApiLayerInterface';
        problems.push({
          severity: 'error',
          stage: 'symbol',
          what: `${what(c)} exports no ${symbol}`,
          why: { file: lib, symbol, reason },
          fix:
            c.kind === 'runtime'
              ? `is this an OpenXR 1.0 runtime? ${renamed ? `the manifest renames the negotiate function to ${symbol}: check \`functions\` in ${c.manifestPath}` : `check \`functions\` in ${c.manifestPath} (a runtime with another negotiate name must declare it there)`}`
              : `is this an OpenXR 1.0 layer? ${renamed ? `the manifest renames the negotiate function to ${symbol}: check \`functions\` in ${c.manifestPath}` : `check \`functions\` in ${c.manifestPath} (a layer with another negotiate name must declare it there)`}`,
        });
      } else {
        problems.push({
          severity: 'error',
          stage: 'negotiate',
          what: `${what(c)} failed negotiation: ${reason}`,
          why: { file: lib, symbol: c.probe && 'job' in c.probe ? c.probe.job.negotiateFunctionName : '', reason },
          fix: `update ${c.name} to a version that supports the OpenXR loader interface 1 and OpenXR 1.x; meanwhile ${workaround(c)}`,
        });
      }
      return { problems };
    }
    default:
      return { problems: processProblems({ name: c.name, libraryPath: lib, workaround: workaround(c) }, outcome) };
  }
}

/** The report entry of a component: its static problems, then what its probe (if it ran) found. */
export function reportComponent(c: ComponentDraft, outcome: ProbeOutcome | undefined): ComponentReport {
  const probed = outcome ? probeProblems(c, outcome) : undefined;
  const problems = [...c.problems, ...(probed?.problems ?? [])];
  const { probe: _draftProbe, manifestApiVersion: _v, disableEnvironment: _d, ...rest } = c;
  return {
    ...rest,
    problems,
    status: componentStatus(problems),
    ...(probed?.negotiated ? { negotiated: probed.negotiated } : {}),
    probe: outcome
      ? { ran: true as const, durationMs: outcome.durationMs, stderr: outcome.output }
      : { ran: false as const, reason: 'skip' in c.probe ? c.probe.skip : 'not probed' },
  };
}

/** A library that negotiated but then crashed or exited badly (while unloading or exiting). */
export function afterwardsProblem(what: string, name: string, libraryPath: string, afterwards: string, output: string): Problem {
  return {
    severity: 'warning',
    stage: 'crash',
    what: `${what} negotiated, but ${afterwards} (while unloading or exiting)`,
    why: { file: libraryPath, reason: afterwards + outputContext(output) },
    fix: `report it to the vendor of ${name}: a library must unload cleanly`,
  };
}

/** The probe process's last lines of output, as context for a reason ('' when it printed nothing). */
export function outputContext(output: string): string {
  return output.trim() === '' ? '' : ` — its output: ${output.trim().split('\n').slice(-3).join(' | ')}`;
}

/** What the doctor needs to word a probe process's failure, whichever API the library belongs to. */
export interface ProbeSubject {
  readonly name: string;
  readonly libraryPath: string;
  /** How to keep the component out of the way until it is fixed. */
  readonly workaround: string;
}

/** The problem for a probe that ended without an answer: a crash, a hang, an exit, or a probe that could not run. */
export function processProblems(subject: ProbeSubject, outcome: Exclude<ProbeOutcome<unknown>, { kind: 'answered' }>): Problem[] {
  const lib = subject.libraryPath;
  const context = outputContext(outcome.output);
  switch (outcome.kind) {
    case 'signal':
      return [
        {
          severity: 'error',
          stage: 'crash',
          what: `crashed with ${outcome.signal} during negotiation`,
          why: { file: lib, reason: `the probe process was killed by ${outcome.signal} while loading and negotiating${context}` },
          fix: `report it to the vendor of ${subject.name}; until it is fixed, ${subject.workaround}`,
        },
      ];
    case 'timeout': {
      const s = outcome.timeoutMs / 1000;
      return [
        {
          severity: 'error',
          stage: 'timeout',
          what: `did not return within ${s} s`,
          why: { file: lib, reason: `loading and negotiating took longer than ${s} s; the probe process was killed${context}` },
          fix: `report it to the vendor of ${subject.name} (it hangs while loading or negotiating; retry with --timeout if it is only slow); until then, ${subject.workaround}`,
        },
      ];
    }
    case 'exited':
      return [
        {
          // A message means the probe itself could not run (the addon did not load): the component is unchecked, not broken.
          severity: outcome.message ? 'warning' : 'error',
          stage: 'probe',
          what: outcome.message ? `the probe could not run: ${outcome.message}` : `the process exited with code ${outcome.exitCode} while loading and negotiating, without an answer`,
          why: { file: lib, reason: `exit code ${outcome.exitCode}${context}` },
          fix: outcome.message ? 'check the khronos-loader installation (the native addon must load)' : `the library ends the process when loaded (it calls exit or abort): report it to the vendor of ${subject.name}; until then, ${subject.workaround}`,
        },
      ];
    case 'startup-timeout':
      return [
        {
          severity: 'warning',
          stage: 'probe',
          what: `the probe process did not start within ${outcome.timeoutMs / 1000} s; ${subject.name} was not checked`,
          why: { file: lib, reason: `no answer from the probe process${context}` },
          fix: 'run the doctor again on a less busy machine',
        },
      ];
    case 'spawn-failed':
      return [
        {
          severity: 'warning',
          stage: 'probe',
          what: `the probe process could not be started; ${subject.name} was not checked`,
          why: { file: lib, reason: outcome.message },
          fix: 'check that node can start child processes here',
        },
      ];
  }
}
