import { describe, expect, it } from 'vitest';
import { niceStep, renderLineChart } from '../../../lib/tools/bench/chart-svg.js';
import { markdownTable } from '../../../lib/tools/bench/markdown-table.js';
import { formatSummary, summarize } from '../../../lib/tools/bench/stats.js';

describe('BENCH: result formatting', () => {
  it('BENCH: summarize gives the median, the range and the relative IQR of repeated runs', () => {
    const s = summarize([10, 12, 11, 100, 9]);
    expect(s.median).toBe(11);
    expect(s.min).toBe(9);
    expect(s.max).toBe(100);
    expect(s.runs).toBe(5);
    expect(s.relativeIqr).toBeCloseTo((12 - 10) / 11, 10);
    expect(formatSummary(summarize([2.5, 2.5]))).toBe('2.50 ns ±0.0 %');
    expect(() => summarize([Number.NaN])).toThrow(expect.objectContaining({ code: 'KL_INVALID_ARGUMENT' }));
  });

  it('BENCH: the chart places each series point where its value says, with a legend entry per series', () => {
    const svg = renderLineChart(
      [
        { label: 'ours <trampoline>', points: [[0, 2], [1, 3], [4, 6]] },
        { label: 'Khronos', points: [[0, 7], [1, 7.5], [4, Number.NaN]] },
      ],
      { title: 'xrLocateSpace', width: 600, height: 400 },
    );
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('ours &lt;trampoline&gt;');
    // Two series: two paths, 3 + 2 points (the NaN is skipped).
    expect(svg.match(/<path /g)?.length).toBe(2);
    expect(svg.match(/<circle /g)?.length).toBe(5);
    // y axis runs 0..8 (step 2) over the plot height 400-40-52 = 308: y=2 sits at 40 + 308 - 308/4.
    expect(svg).toContain(`cy="${(40 + 308 - 308 / 4).toFixed(1)}"`);
    expect(niceStep(7.5, 5)).toBe(2);
    expect(niceStep(0.37, 5)).toBe(0.1);
  });

  it('BENCH: markdown tables right-align the numeric columns and escape pipes', () => {
    expect(markdownTable(['layers', 'ns'], [['0', '2.5'], ['a|b', '3']])).toBe(
      ['| layers | ns |', '| --- | ---: |', '| 0 | 2.5 |', '| a\\|b | 3 |'].join('\n'),
    );
  });
});
