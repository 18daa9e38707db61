// The doctor: for each API, checks every manifest discovery found, then loads and negotiates each
// library in a child process of its own, and reports what is wrong, why and what to do about it.
// OpenXR's in openxr/, Vulkan's in vulkan/, with the same files for the same roles; what both
// share (the report model, the text format, the probes' processes, the library checks) here.
export { doctor, type DoctorOptions } from './openxr/doctor.js';
export { formatDoctorReport } from './openxr/format.js';
export { doctorReportJson } from './format.js';
export { doctorVulkan, type VulkanDoctorOptions } from './vulkan/doctor.js';
export { formatVulkanDoctorReport } from './vulkan/format.js';
export type { VulkanComponentReport, VulkanDoctorReport, VulkanNegotiationSummary } from './vulkan/report.js';
export type { ComponentReport, DoctorReport, ComponentKind, NegotiationSummary } from './openxr/report.js';
export type { ComponentStatus, Problem, ProblemCause, ProblemStage } from './report.js';
