// Every command the benchmark accepts sets up and runs on the shipped simulated runtime, through
// this loader with a pass-through layer (tiny counts: this checks the scenarios, not speed).
import { describe, expect, it } from 'vitest';
import { BENCH_COMMANDS, benchCommand } from '../../lib/tools/bench/openxr-commands.js';
import { runOpenXrBench } from '../../lib/tools/bench/run-openxr-bench.js';
import { formatBenchMarkdown, renderBenchChart } from '../../lib/tools/bench/report.js';
import { loadToolsAddon } from '../../lib/tools/native/addon.js';

describe('bench openxr commands', () => {
  it('BENCH: the TypeScript command list is the native one', () => {
    expect(BENCH_COMMANDS.map((c) => c.name)).toEqual(loadToolsAddon().openxrBenchCommands());
    expect(() => benchCommand('xrFoo')).toThrow(/command must be one of the commands bench can time \(xrLocateSpace, .*\), got xrFoo/);
  });

  it('BENCH: the native scenario rejects an unknown command with the supported list', () => {
    const { OpenXrBenchScenario } = loadToolsAddon();
    expect(() => new OpenXrBenchScenario({ command: 'xrFoo', loaderLibrary: '/nonexistent' })).toThrow(
      'the benchmark cannot time xrFoo; supported commands: xrLocateSpace, xrLocateViews, xrGetActionStateBoolean, xrSyncActions, xrWaitFrame',
    );
  });

  for (const command of BENCH_COMMANDS) {
    it(`BENCH: ${command.name} is timed with 0 and 1 pass-through layers`, async () => {
      const iterations = command.kind === 'frame' ? 2 : 50;
      const result = await runOpenXrBench({ command: command.name, passthroughCounts: [0, 1], iterations, repeats: 2, khronosLoader: false });
      expect(result.rows.map((r) => r.apiLayerNames.length)).toEqual([0, 1]);
      for (const row of result.rows) {
        for (const id of ['ours-trampoline', 'ours-pointer'] as const) {
          const cell = row.cells[id];
          if (!cell || 'skipped' in cell) throw new Error(`${id} not measured: ${JSON.stringify(cell)}`);
          expect(cell.wall.runs).toBe(2);
          expect(cell.cpu?.runs).toBe(2);
          // A frame waits for the display period: wall time well above the CPU time.
          if (command.kind === 'frame') expect(cell.wall.median).toBeGreaterThan(cell.cpu?.median ?? Infinity);
        }
      }
      expect(formatBenchMarkdown(result)).toContain(`OpenXR \`${command.name}\``);
      expect(renderBenchChart(result)).toContain('<svg');
    });
  }
});
