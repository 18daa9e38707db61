// A window on an X server for the presentation benchmark (`khronos-loader bench vulkan --command
// vkQueuePresentKHR`): libxcb opened at run time (dlopen of libxcb.so.1, so the tools addon loads
// on a machine without it), one mapped window, destroyed with the connection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

struct xcb_connection_t;

namespace kl::napi::bench {

class XcbWindow {
 public:
  // Connects to `display` (":<n>") and maps a width × height window; throws std::runtime_error
  // saying which step failed (libxcb missing, no server, built without the XCB headers).
  static std::unique_ptr<XcbWindow> Open(const std::string& display, uint16_t width, uint16_t height);
  ~XcbWindow();
  XcbWindow(const XcbWindow&) = delete;
  XcbWindow& operator=(const XcbWindow&) = delete;

  xcb_connection_t* connection() const noexcept { return connection_; }
  uint32_t window() const noexcept { return window_; }

 private:
  struct Library;
  XcbWindow(std::shared_ptr<Library> library, xcb_connection_t* connection, uint32_t window) noexcept;
  std::shared_ptr<Library> library_;
  xcb_connection_t* connection_;
  uint32_t window_;
};

}  // namespace kl::napi::bench
