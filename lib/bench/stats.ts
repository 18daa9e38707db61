// Summaries of repeated timing runs: the median is the figure, the spread says how far to trust it.

export interface Summary {
  /** How many runs. */
  readonly runs: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Interquartile range relative to the median (0.02 = the middle half of runs lie within 2 %). */
  readonly relativeIqr: number;
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const a = sorted[lower] ?? Number.NaN;
  const b = sorted[upper] ?? Number.NaN;
  return a + (b - a) * (position - lower);
}

export function summarize(samples: readonly number[]): Summary {
  const finite = samples.filter((s) => Number.isFinite(s));
  if (finite.length === 0) throw new RangeError('summarize: no finite samples');
  const sorted = [...finite].sort((x, y) => x - y);
  const median = quantile(sorted, 0.5);
  const iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  return {
    runs: sorted.length,
    median,
    min: sorted[0] ?? median,
    max: sorted[sorted.length - 1] ?? median,
    relativeIqr: median === 0 ? 0 : iqr / median,
  };
}

/** "2.48 ns ±1.2 %": the median with the half-IQR as a percentage. */
export function formatSummary(summary: Summary, unit = 'ns'): string {
  const digits = summary.median < 10 ? 2 : summary.median < 100 ? 1 : 0;
  const spread = (summary.relativeIqr * 50).toFixed(1);
  return `${summary.median.toFixed(digits)} ${unit} ±${spread} %`;
}
