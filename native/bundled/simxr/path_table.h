// The XrPath atom table of one instance (xrStringToPath / xrPathToString).
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bundled/simxr/xr_api.h"

namespace simxr {

class PathTable {
 public:
  /** The spec's "well-formed path string" rules. */
  static bool isWellFormed(std::string_view text);

  /** The atom for a well-formed path string, created on first use; nothing when malformed. */
  std::optional<XrPath> intern(std::string_view text);

  /** The string of a path atom, or nothing when the atom was never handed out. */
  std::optional<std::string> toString(XrPath path) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, XrPath> atoms_;
  std::vector<std::string> strings_;  // atom N is strings_[N - 1]
};

}  // namespace simxr
