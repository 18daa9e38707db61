// What a probe's outcome means for the report: the problem lines (what, why, fix) and, when the
// library negotiated, what it negotiated.
import { XR_RESULT_CODES } from '../../../openxr/errors.js';
import type { ComponentDraft } from './static-checks.js';
import type { ProbeOutcome } from '../run-probes.js';
import { componentStatus, type Problem } from '../report.js';
import type { ComponentReport, NegotiationSummary } from './report.js';
import { afterwardsProblem, nameResultCodes, processProblems } from '../probe-problems.js';

const RESULT_NAMES = new Map<number, string>(Object.entries(XR_RESULT_CODES).map(([name, code]) => [code, name]));

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
    return `switch to another runtime (\`khronos-loader runtimes\` lists them; XR_RUNTIME_JSON or the active_runtime.json link, or for one application only its runtime choice: --runtime '<name>' on the command line), or reinstall this one`;
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
