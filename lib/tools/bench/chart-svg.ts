// A line chart as a standalone SVG document: cost per call (y) against layer count (x), one
// line per way of calling. Plain strings, no dependencies, deterministic output.

export interface ChartSeries {
  readonly label: string;
  /** [x, y] points; x = layer count, y = ns per call. Points with a non-finite y are skipped. */
  readonly points: readonly (readonly [number, number])[];
}

export interface ChartOptions {
  readonly title: string;
  readonly xLabel?: string;
  readonly yLabel?: string;
  readonly width?: number;
  readonly height?: number;
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A "nice" step (1, 2 or 5 times a power of ten) giving about `ticks` intervals over `range`. */
export function niceStep(range: number, ticks: number): number {
  if (!(range > 0)) return 1;
  const raw = range / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

function formatTick(value: number, step: number): string {
  const decimals = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step)));
  return value.toFixed(decimals);
}

export function renderLineChart(series: readonly ChartSeries[], options: ChartOptions): string {
  const width = options.width ?? 720;
  const height = options.height ?? 420;
  // The legend's column is as wide as its longest label (about 7 px per character at 12 px).
  const longest = Math.max(0, ...series.map((s) => s.label.length));
  const margin = { left: 64, right: Math.max(200, 46 + Math.ceil(longest * 7)), top: 40, bottom: 52 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;

  const points = series.flatMap((s) => s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)));
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const xMin = xs.length > 0 ? Math.min(...xs) : 0;
  const xMaxRaw = xs.length > 0 ? Math.max(...xs) : 1;
  const xMax = xMaxRaw > xMin ? xMaxRaw : xMin + 1;
  const yStep = niceStep(ys.length > 0 ? Math.max(...ys) : 1, 5);
  const yMax = Math.max(yStep, Math.ceil((ys.length > 0 ? Math.max(...ys) : 1) / yStep) * yStep);

  const px = (x: number) => margin.left + ((x - xMin) / (xMax - xMin)) * plotW;
  const py = (y: number) => margin.top + plotH - (y / yMax) * plotH;
  const f = (n: number) => n.toFixed(1);

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${f(width / 2 - margin.right / 2)}" y="22" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`);

  // Grid and y ticks.
  for (let y = 0; y <= yMax + yStep / 2; y += yStep) {
    out.push(`<line x1="${margin.left}" y1="${f(py(y))}" x2="${margin.left + plotW}" y2="${f(py(y))}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${margin.left - 8}" y="${f(py(y) + 4)}" text-anchor="end">${formatTick(y, yStep)}</text>`);
  }
  // x ticks at the distinct x values (layer counts are few and whole).
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    out.push(`<line x1="${f(px(x))}" y1="${margin.top + plotH}" x2="${f(px(x))}" y2="${margin.top + plotH + 5}" stroke="#333"/>`);
    out.push(`<text x="${f(px(x))}" y="${margin.top + plotH + 18}" text-anchor="middle">${x}</text>`);
  }
  out.push(`<line x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${margin.top + plotH}" stroke="#333"/>`);
  out.push(`<line x1="${margin.left}" y1="${margin.top + plotH}" x2="${margin.left + plotW}" y2="${margin.top + plotH}" stroke="#333"/>`);
  out.push(`<text x="${f(margin.left + plotW / 2)}" y="${height - 12}" text-anchor="middle">${escapeXml(options.xLabel ?? 'API layers in the chain')}</text>`);
  out.push(`<text transform="translate(16 ${f(margin.top + plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel ?? 'ns per call')}</text>`);

  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length] ?? '#000000';
    const valid = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)).sort((a, b) => a[0] - b[0]);
    if (valid.length > 1) {
      const d = valid.map(([x, y], j) => `${j === 0 ? 'M' : 'L'}${f(px(x))} ${f(py(y))}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
    }
    for (const [x, y] of valid) out.push(`<circle cx="${f(px(x))}" cy="${f(py(y))}" r="3.5" fill="${color}"/>`);
    const ly = margin.top + 10 + i * 20;
    const lx = margin.left + plotW + 16;
    out.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 20}" y2="${ly}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${lx + 26}" y="${ly + 4}">${escapeXml(s.label)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
