// npm run bench: runs the benchmarks and writes bench/RESULTS.md.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../lib/native.js';
import { buildBenchComponents, formatResults, runOpenXrDispatchBench } from './openxr-dispatch.js';

const iterations = Number(process.env.KL_BENCH_ITERATIONS ?? 5_000_000);
const repeats = Number(process.env.KL_BENCH_REPEATS ?? 5);
const rounds = Number(process.env.KL_BENCH_ROUNDS ?? 3);
buildBenchComponents();
const rows = runOpenXrDispatchBench(iterations, repeats, [0, 1, 4], rounds);
const text = formatResults(rows, iterations, repeats, rounds);
writeFileSync(path.join(packageRoot, 'bench/RESULTS.md'), text);
process.stdout.write(text);
