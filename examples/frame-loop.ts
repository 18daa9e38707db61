// A small OpenXR app in Node: a headless session on the simulated runtime that ships with
// khronos-loader (or on the runtime XR_RUNTIME_JSON names, e.g. Monado), a frame loop for 3
// seconds, the head pose printed once a second, and how the loop ran on that runtime.
// Copy it, point XR_RUNTIME_JSON at your runtime (or leave it to the active one), and go.
//
//   npx tsx examples/frame-loop.ts
import { createLoader, describeFrameLoopMode, runFrameLoop, simulatedRuntime, POSE_FLOATS, VIEW_FLOATS } from 'khronos-loader/openxr';

process.env.XR_RUNTIME_JSON ??= simulatedRuntime();

const loader = createLoader();
// Where xrWaitFrame does not pace a headless session (Monado's), runFrameLoop paces itself: these
// give it the runtime's clock and display rate when the runtime offers them.
const offered = new Set(loader.enumerateInstanceExtensionProperties().map((e) => e.name));
const instance = loader.createInstance({
  applicationName: 'frame-loop example',
  enabledExtensionNames: ['XR_MND_headless', ...['XR_KHR_convert_timespec_time', 'XR_FB_display_refresh_rate'].filter((e) => offered.has(e))],
});
const session = instance.createSession(instance.getSystem('head-mounted-display'), { headless: true });
session.on('stateChanged', (state) => console.log(`session: ${state}`));

const local = session.createReferenceSpace('local');
const head = session.createReferenceSpace('view');
// Output arrays, allocated once: the frame loop itself allocates nothing.
const headPose = new Float32Array(POSE_FLOATS);
const views = new Float32Array(session.viewCount() * VIEW_FLOATS);
let lastPrint = 0n;

const stats = await runFrameLoop(session, {
  durationMs: 3000,
  onFrame(frame) {
    if (frame.predictedDisplayTime === 0n) return; // a runtime that gives no frame times: nothing to locate at
    session.locateViews(local, frame.predictedDisplayTime, views); // left eye: views[0..10], right: views[11..21]
    head.locate(local, frame.predictedDisplayTime, headPose);
    if (frame.predictedDisplayTime - lastPrint > 1_000_000_000n) {
      lastPrint = frame.predictedDisplayTime;
      console.log(`head at (${headPose[0]?.toFixed(3)}, ${headPose[1]?.toFixed(3)}, ${headPose[2]?.toFixed(3)})`);
    }
  },
});
console.log(`${stats.rendered} frames rendered, ${stats.missed} missed; ${describeFrameLoopMode(stats.mode)}`);
instance.destroy();
