// Summaries of repeated timing runs: the median is the figure, the spread says how far to trust it.
import { InvalidArgumentError } from '../../core/errors.js';

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
  if (finite.length === 0) throw new InvalidArgumentError(`summarize(samples): samples must hold a finite number, got ${samples.length} sample(s), none finite`, 'samples');
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

/** A distribution-free interval for a median: two order statistics and how often such an interval holds the true median. */
export interface MedianInterval {
  readonly low: number;
  readonly high: number;
  /** The probability (0..1) that an interval built this way holds the median, whatever the distribution. */
  readonly coverage: number;
  readonly samples: number;
}

function binomialHalfCdf(n: number, k: number): number {
  // P(X <= k) for X ~ Binomial(n, 1/2), exactly enough for the few dozen samples a bench has.
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * The narrowest interval [x(k), x(n+1-k)] of the sorted samples whose coverage is at least
 * `confidence` (sign-test interval; no assumption about the distribution). With too few samples
 * for that confidence it is [min, max] and its coverage says how much less it holds.
 */
export function medianInterval(samples: readonly number[], confidence = 0.95): MedianInterval {
  const sorted = samples.filter((s) => Number.isFinite(s)).sort((x, y) => x - y);
  const n = sorted.length;
  if (n === 0) throw new InvalidArgumentError(`medianInterval(samples): samples must hold a finite number, got ${samples.length} sample(s), none finite`, 'samples');
  let k = 1;
  while (k + 1 <= Math.floor((n + 1) / 2) && 1 - 2 * binomialHalfCdf(n, k) >= confidence) k++;
  const coverage = n === 1 ? 0 : 1 - 2 * binomialHalfCdf(n, k - 1);
  return { low: sorted[k - 1]!, high: sorted[n - k]!, coverage, samples: n };
}
