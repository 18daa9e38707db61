// Run-time fault injection for the test runtime, test layer and test driver builds that define
// KL_FAULTS (their "_faults" targets). The fault is chosen by environment variables, read at
// every call, so one library serves every test case:
//   KL_FAULT_IN       which component faults: "runtime", "layer" or "driver" (unset: none)
//   KL_FAULT_COMMAND  the command whose call faults, or "negotiate" for the negotiation function
//   KL_FAULT_NTH      which call of it, 1 = the first (default); 0 = every call
//   KL_FAULT_KIND     fail          the call returns the component's failure result
//                     null          its GetInstanceProcAddr answers success with a NULL pointer
//                                   for the command (counted over look-ups, not calls)
//                     count-grow    two-call idiom: the second call finds one more element
//                                   (answers the "too small" result, as a correct component whose
//                                   list changed does)
//                     count-shrink  two-call idiom: the second call finds one element fewer
//                     count-lie     two-call idiom: the second call writes what fits but reports a
//                                   count above the capacity, with success (malformed)
//                     abort | segv | hang   the call dies of SIGABRT / SIGSEGV, or never returns
// Calls are counted per library load (the counts live in the library, so an unload resets them).
#pragma once

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace kl_fault {

enum class Kind { None, Fail, Null, CountGrow, CountShrink, CountLie, Abort, Segv, Hang };

inline Kind ParseKind(const char* s) {
  if (s == nullptr) return Kind::None;
  const std::string k = s;
  if (k == "fail") return Kind::Fail;
  if (k == "null") return Kind::Null;
  if (k == "count-grow") return Kind::CountGrow;
  if (k == "count-shrink") return Kind::CountShrink;
  if (k == "count-lie") return Kind::CountLie;
  if (k == "abort") return Kind::Abort;
  if (k == "segv") return Kind::Segv;
  if (k == "hang") return Kind::Hang;
  return Kind::None;
}

// The registry of this library's call counts, by command (calls) and "lookup:" + command.
class CallCounts {
 public:
  static CallCounts& Get() {
    static CallCounts counts;
    return counts;
  }
  unsigned long Next(const std::string& key) {
    std::lock_guard lock(mutex_);
    return ++counts_[key];
  }

 private:
  std::mutex mutex_;
  std::map<std::string, unsigned long> counts_;
};

// The fault chosen for this call of `command` in `component`, Kind::None when there is none.
// `lookup`: the call is a GetInstanceProcAddr look-up of `command` (only Kind::Null applies).
inline Kind At(const char* component, const char* command, bool lookup = false) {
  const char* in = std::getenv("KL_FAULT_IN");
  const char* chosen = std::getenv("KL_FAULT_COMMAND");
  if (in == nullptr || chosen == nullptr || command == nullptr || std::strcmp(in, component) != 0 || std::strcmp(chosen, command) != 0) {
    return Kind::None;
  }
  const Kind kind = ParseKind(std::getenv("KL_FAULT_KIND"));
  if ((kind == Kind::Null) != lookup) return Kind::None;
  const char* nthText = std::getenv("KL_FAULT_NTH");
  const unsigned long nth = nthText != nullptr ? std::strtoul(nthText, nullptr, 10) : 1;
  const unsigned long call = CallCounts::Get().Next(std::string(lookup ? "lookup:" : "") + command);
  return nth == 0 || call == nth ? kind : Kind::None;
}

// Carries out the kinds that end or stop the process; returns the kind for the caller otherwise.
inline Kind Act(Kind kind) {
  switch (kind) {
    case Kind::Abort: std::abort();
    case Kind::Segv: std::raise(SIGSEGV); std::abort();
    case Kind::Hang:
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    default: return kind;
  }
}

}  // namespace kl_fault
