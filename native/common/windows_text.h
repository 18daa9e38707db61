// Windows text at the API boundary: the package speaks UTF-8 everywhere, Win32's wide ("W")
// functions take UTF-16, and error codes become the system's own message (FormatMessageW).
#pragma once

#ifdef _WIN32

#include <cstdint>
#include <optional>
#include <string>

namespace kl::windows {

// UTF-8 → UTF-16; nullopt when `text` is not valid UTF-8 (or holds a NUL, which no Win32 path or
// key name may contain).
std::optional<std::wstring> Utf8ToWide(const std::string& text);

// UTF-16 → UTF-8 (unpaired surrogates become U+FFFD).
std::string WideToUtf8(const wchar_t* text, std::size_t length);
std::string WideToUtf8(const std::wstring& text);

// The system's message for a Win32 error code, e.g. "The specified module could not be found.
// (error 126)"; "error N" alone when the system has no text for it.
std::string ErrorText(std::uint32_t code);

}  // namespace kl::windows

#endif
