// Vulkan discovery's diagnostics: lib/core's, with VkResult names as the result they lead to.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { VkResultName } from '../../generated/vulkan.js';

export type VulkanDiagnostic = Diagnostic<VkResultName>;
export { formatDiagnostic as formatVulkanDiagnostic } from '../../core/diagnostics.js';
