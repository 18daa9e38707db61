// The two-call idiom of the OpenXR spec ("Buffer Size Parameters"), in one place.
#pragma once

#include <algorithm>
#include <cstring>
#include <deque>
#include <string_view>

#include "bundled/simxr/xr_api.h"

namespace simxr {

/**
 * Answers an array query: capacity 0 asks for the count; a capacity below the count is
 * XR_ERROR_SIZE_INSUFFICIENT (with the count written); otherwise fill(i, out[i]) for each element.
 * If elements carry a structure type, `requiredType` (non-zero) is checked on each one first.
 */
template <class T, class Fill>
XrResult answerArray(uint32_t capacity, uint32_t* countOutput, T* out, uint32_t count, Fill fill,
                     XrStructureType requiredType = static_cast<XrStructureType>(0)) {
  if (countOutput == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (capacity != 0 && out == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *countOutput = count;
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < count) return XR_ERROR_SIZE_INSUFFICIENT;
  if (requiredType != 0) {
    for (uint32_t i = 0; i < count; ++i) {
      if (structTypeOf(&out[i]) != requiredType) return XR_ERROR_VALIDATION_FAILURE;
    }
  }
  for (uint32_t i = 0; i < count; ++i) fill(i, out[i]);
  return XR_SUCCESS;
}

/** The two-call idiom for a string: the count includes the terminating null character. */
inline XrResult answerString(uint32_t capacity, uint32_t* countOutput, char* buffer, std::string_view text) {
  if (countOutput == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (capacity != 0 && buffer == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const auto count = static_cast<uint32_t>(text.size() + 1);
  *countOutput = count;
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < count) return XR_ERROR_SIZE_INSUFFICIENT;
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  return XR_SUCCESS;
}

/**
 * The runtime's test-only drain commands: capacity 0 asks how many records wait (nothing removed);
 * otherwise the oldest up to `capacity` are moved into `out`, oldest first.
 */
template <class T>
XrResult answerDrain(std::deque<T>& waiting, uint32_t capacity, uint32_t* countOutput, T* out) {
  if (countOutput == nullptr || (capacity != 0 && out == nullptr)) return XR_ERROR_VALIDATION_FAILURE;
  if (capacity == 0) {
    *countOutput = static_cast<uint32_t>(waiting.size());
    return XR_SUCCESS;
  }
  const auto n = static_cast<uint32_t>(std::min<std::size_t>(capacity, waiting.size()));
  std::copy(waiting.begin(), waiting.begin() + n, out);
  waiting.erase(waiting.begin(), waiting.begin() + n);
  *countOutput = n;
  return XR_SUCCESS;
}

/** Copies `text` into a fixed-size char array member, always null-terminated. */
template <std::size_t N>
void copyFixedString(char (&destination)[N], std::string_view text) {
  const std::size_t n = text.size() < N - 1 ? text.size() : N - 1;
  std::memcpy(destination, text.data(), n);
  destination[n] = '\0';
}

/** True when `text` is null-terminated within a fixed-size array of N chars. */
inline bool terminatedWithin(const char* text, std::size_t n) {
  return text != nullptr && std::memchr(text, '\0', n) != nullptr;
}

}  // namespace simxr
