#ifdef _WIN32

#include "common/windows_text.h"

#include "common/windows_headers.h"

#include <memory>

namespace kl::windows {

std::optional<std::wstring> Utf8ToWide(const std::string& text) {
  if (text.find('\0') != std::string::npos) return std::nullopt;
  if (text.empty()) return std::wstring();
  if (text.size() > static_cast<std::size_t>(INT32_MAX)) return std::nullopt;
  const int inLength = static_cast<int>(text.size());
  const int outLength = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text.data(), inLength, nullptr, 0);
  if (outLength <= 0) return std::nullopt;
  std::wstring wide(static_cast<std::size_t>(outLength), L'\0');
  if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text.data(), inLength, wide.data(), outLength) != outLength) {
    return std::nullopt;
  }
  return wide;
}

std::string WideToUtf8(const wchar_t* text, std::size_t length) {
  if (length == 0 || length > static_cast<std::size_t>(INT32_MAX)) return std::string();
  const int inLength = static_cast<int>(length);
  const int outLength = WideCharToMultiByte(CP_UTF8, 0, text, inLength, nullptr, 0, nullptr, nullptr);
  if (outLength <= 0) return std::string();
  std::string utf8(static_cast<std::size_t>(outLength), '\0');
  WideCharToMultiByte(CP_UTF8, 0, text, inLength, utf8.data(), outLength, nullptr, nullptr);
  return utf8;
}

std::string WideToUtf8(const std::wstring& text) { return WideToUtf8(text.data(), text.size()); }

namespace {
struct LocalFreeDeleter {
  void operator()(wchar_t* buffer) const noexcept { LocalFree(buffer); }
};
}  // namespace

std::string ErrorText(std::uint32_t code) {
  wchar_t* raw = nullptr;
  const DWORD length = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code,
                                      MAKELANGID(LANG_NEUTRAL, SUBLANG_DEFAULT), reinterpret_cast<wchar_t*>(&raw), 0, nullptr);
  std::unique_ptr<wchar_t, LocalFreeDeleter> buffer(raw);
  const std::string suffix = "error " + std::to_string(code);
  if (length == 0 || !buffer) return suffix;
  std::string text = WideToUtf8(buffer.get(), length);
  // The system's messages end with "\r\n"; a message of one line reads better without it.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text.empty() ? suffix : text + " (" + suffix + ")";
}

}  // namespace kl::windows

#endif
