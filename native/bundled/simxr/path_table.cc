#include "bundled/simxr/path_table.h"

namespace simxr {

bool PathTable::isWellFormed(std::string_view text) {
  if (text.empty() || text.size() >= XR_MAX_PATH_LENGTH || text.front() != '/' || text.back() == '/') return false;
  std::size_t componentStart = 1;
  for (std::size_t i = 1; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '/') {
      const std::string_view component = text.substr(componentStart, i - componentStart);
      if (component.empty()) return false;                                 // "//"
      if (component.find_first_not_of('.') == std::string_view::npos) return false;  // only periods
      componentStart = i + 1;
      continue;
    }
    const char c = text[i];
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!allowed) return false;
  }
  return true;
}

std::optional<XrPath> PathTable::intern(std::string_view text) {
  if (!isWellFormed(text)) return std::nullopt;
  std::lock_guard lock(mutex_);
  std::string key(text);
  if (auto it = atoms_.find(key); it != atoms_.end()) return it->second;
  strings_.push_back(key);
  const auto atom = static_cast<XrPath>(strings_.size());
  atoms_.emplace(std::move(key), atom);
  return atom;
}

std::optional<std::string> PathTable::toString(XrPath path) const {
  std::lock_guard lock(mutex_);
  if (path == XR_NULL_PATH || path > strings_.size()) return std::nullopt;
  return strings_[path - 1];
}

}  // namespace simxr
