// The Vulkan discovery context: the core context (lib/core/context.ts) with the VK_LOADER_DEBUG
// logger and the Khronos Vulkan loader's words for variables an elevated process ignores.
import { createDiscoveryContext, type DiscoveryContext, type DiscoveryOptions } from '../../core/context.js';
import type { Logger } from '../../core/log.js';
import type { Platform } from '../../core/platform/platform.js';
import type { VkResultName } from '../../generated/vulkan.js';
import { createVkLogger } from './vk-loader-debug.js';
import type { VulkanLoaderPolicyOptions } from './loader-policy.js';

export interface VulkanDiscoveryOptions extends DiscoveryOptions, VulkanLoaderPolicyOptions {
  /** SYSCONFDIR compiled into the loader (default /etc, as distributions build it). */
  sysconfdir?: string;
  /** Where the settings file is looked for besides the XDG folders (default: the same as the layers'). */
  settingsFile?: 'search' | 'none';
}

export interface VulkanDiscoveryContext extends DiscoveryContext<VkResultName> {
  /** A settings file's stderr_log replaces VK_LOADER_DEBUG from here on. */
  useSettingsLog(words: readonly string[]): void;
}

export const VULKAN_DEFAULT_SYSCONFDIR = '/etc';

export function createVulkanContext(platform: Platform, options: VulkanDiscoveryOptions): VulkanDiscoveryContext {
  let logger: Logger = createVkLogger(platform.env, options.logWriter, options.onLog);
  const core = createDiscoveryContext<VkResultName>(
    platform,
    { ...options, sysconfdir: options.sysconfdir ?? VULKAN_DEFAULT_SYSCONFDIR },
    {
      logger: (record) => logger(record),
      source: 'vulkan.discovery',
      ignoredWhileElevated: (name) => ({
        level: 'info',
        message: `Loader is running with elevated permissions. Environment variable ${name} will be ignored`,
      }),
    },
  );
  return Object.assign(core, {
    useSettingsLog(words: readonly string[]) {
      logger = createVkLogger(platform.env, options.logWriter, options.onLog, words);
    },
  });
}
