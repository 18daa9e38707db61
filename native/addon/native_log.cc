// khronosLoaderLog: the native log path as a C entry point, for native code of this package that
// runs in the same process but outside this addon (the tools addon: the doctor's probes), so its
// records reach JavaScript through this addon's bridge like the loader's own.
#include <string>

#include "common/export.h"
#include "common/log.h"

KL_EXPORT_C void khronosLoaderLog(int level, const char* source, const char* message) {
  const int clamped = level < 0 ? 0 : level > 3 ? 3 : level;
  kl::Log(static_cast<kl::LogLevel>(clamped), source != nullptr ? source : "", message != nullptr ? std::string(message) : std::string());
}
