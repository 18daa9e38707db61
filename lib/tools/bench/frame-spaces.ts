// The frame benchmark's defaults, apart from the benchmark itself: `bench openxr --command frame
// --help` reads them without loading the addon.

/** The space counts located per frame, by default. */
export const FRAME_BENCH_SPACE_COUNTS = [1, 4, 16, 64] as const;

/** The OpenXR instance versions the frame benchmark runs on. */
export const FRAME_BENCH_API_VERSIONS = ['1.0', '1.1'] as const;
export type FrameBenchApiVersion = (typeof FRAME_BENCH_API_VERSIONS)[number];
