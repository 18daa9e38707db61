// The two-call idiom (count, then fill) against a component the loader does not trust: the list
// may grow between the two calls (ask again, a few times), shrink (keep what was written), or the
// component may report a count above the capacity it was given (never read past what it could
// have written). Both APIs: failures are negative results, success 0; `incomplete` is the result
// that says the capacity was too small (XR_ERROR_SIZE_INSUFFICIENT, VK_INCOMPLETE).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kl {

inline constexpr int kTwoCallAttempts = 4;

// `call(capacity, &count, data)`: one call of the enumeration (capacity 0 and data null: the size
// query). `blank`: how each element starts (its structure type filled in). On success `out`
// holds the elements; after `kTwoCallAttempts` lists that kept growing, `out` is empty and the
// result is `incomplete`.
template <typename T, typename Result, typename Call>
Result EnumerateTwoCall(std::vector<T>& out, const T& blank, Result incomplete, Call call) {
  out.clear();
  for (int attempt = 0; attempt < kTwoCallAttempts; ++attempt) {
    uint32_t count = 0;
    Result r = call(0u, &count, static_cast<T*>(nullptr));
    if (r < 0) return r;
    std::vector<T> items(count, blank);
    uint32_t written = count;
    r = call(count, &written, items.data());
    if (r == incomplete) continue;  // the list grew since the size query
    if (r < 0) return r;
    items.resize(std::min(written, count));  // never more than the capacity, whatever count came back
    out = std::move(items);
    return r;
  }
  return incomplete;
}

}  // namespace kl
