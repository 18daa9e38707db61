// `khronos-loader layers openxr [--request a,b] [--json]`: the OpenXR side of `layers vulkan`. The
// Khronos OpenXR loader (1.1.61) reads no settings file for its API layers (only the environment:
// XR_API_LAYER_PATH, XR_ENABLE_API_LAYERS, each implicit layer's enable and disable variables), so
// there is nothing to write: the command lists the chain an application asking for no layers (or
// for --request's) gets, with the rule that put each layer there, and every API layer found, on or
// off and why, and the manifests discovery left out (docs/usage.md, "Layers").
import { errorMessage, runCommand, type CliIo } from './args.js';
import { LAYERS_OPENXR } from './specs.js';
import { formatDiagnostic } from '../../openxr/discovery/diagnostics.js';

const list = (v: string | undefined): string[] => (v === undefined ? [] : v.split(',').filter((x) => x !== ''));

interface LayersOpenXrArgs {
  readonly json: boolean;
  readonly request: readonly string[];
}

/** What the command reports (its --json output). */
export interface OpenXrLayersReport {
  readonly requested: readonly string[];
  /** XR_ENABLE_API_LAYERS, as read. */
  readonly enableApiLayers: readonly string[];
  /** Application side first; null when the chain cannot be built (`error` says why). */
  readonly chain: readonly { readonly name: string; readonly kind: string; readonly manifestPath: string; readonly origin: string; readonly reason: string }[] | null;
  readonly error?: string;
  readonly layers: readonly { readonly name: string; readonly kind: string; readonly manifestPath: string; readonly state: 'on' | 'off'; readonly reason: string }[];
  /** Discovery's problems: manifests left out (a second manifest of a name already found, a broken one) and why. */
  readonly problems: readonly string[];
}

export function runLayersOpenXrCli(args: readonly string[], io: CliIo): Promise<number> {
  return runCommand(
    LAYERS_OPENXR,
    args,
    io,
    (o): LayersOpenXrArgs => ({ json: o['--json'] === true, request: list(o['--request']) }),
    async (a) => {
      try {
        const [{ createHostPlatform }, { createLoader }] = await Promise.all([import('../../core/platform/host.js'), import('../../openxr/loader.js')]);
        const env = io.env ?? process.env;
        const loader = createLoader({ platform: createHostPlatform({ env }), logWriter: () => {} });
        const d = loader.discover();
        let chain: OpenXrLayersReport['chain'] = null;
        let error: string | undefined;
        try {
          chain = loader.resolveEnabledLayers(a.request).map((e) => ({ name: e.layer.name, kind: e.layer.kind, manifestPath: e.layer.manifestPath, origin: e.origin, reason: e.reason }));
        } catch (err) {
          error = errorMessage(err);
        }
        const inChain = new Map((chain ?? []).map((e) => [e.name, e]));
        const layers = d.apiLayers.map((l) => {
          const on = inChain.get(l.name)?.manifestPath === l.manifestPath;
          const reason = on
            ? inChain.get(l.name)!.reason
            : l.kind === 'implicit'
              ? l.enabledByDefault
                ? 'implicit, on by its environment, but not in the chain'
                : l.enabledReason
              : 'explicit: on only when the application or XR_ENABLE_API_LAYERS asks for it';
          return { name: l.name, kind: l.kind, manifestPath: l.manifestPath, state: on ? ('on' as const) : ('off' as const), reason };
        });
        const problems = d.diagnostics.map((p) => `${p.severity}: ${formatDiagnostic(p)}`);
        const report: OpenXrLayersReport = { requested: a.request, enableApiLayers: d.enableApiLayers, chain, ...(error !== undefined && { error }), layers, problems };
        if (a.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
        else {
          const asking = a.request.length === 0 ? 'no layers' : a.request.join(', ');
          const out = [`Chain for an application asking for ${asking} (application side first):`];
          if (chain === null) out.push(`  none: ${error ?? ''}`);
          else if (chain.length === 0) out.push('  none');
          else chain.forEach((l, i) => out.push(`  ${i} ${l.name} (${l.kind}) — ${l.reason}`));
          if (d.enableApiLayers.length > 0) out.push('', `XR_ENABLE_API_LAYERS asks for: ${d.enableApiLayers.join(', ')}`);
          out.push('', 'API layers:');
          if (layers.length === 0) out.push('  none found');
          for (const l of layers) out.push(`  ${l.name} (${l.kind}): ${l.state === 'on' ? 'ON' : 'off'} — ${l.reason}`, `      ${l.manifestPath}`);
          out.push('', `Problems (${problems.length}):`, ...(problems.length ? problems.map((p) => `  ${p}`) : ['  none']));
          io.stdout(`${out.join('\n')}\n`);
        }
        return chain === null ? 1 : 0;
      } catch (err) {
        io.stderr(`khronos-loader layers openxr failed: ${errorMessage(err)}\n`);
        return 1;
      }
    },
  );
}
