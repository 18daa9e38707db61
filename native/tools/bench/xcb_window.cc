#include "tools/bench/xcb_window.h"

#include <cstdlib>
#include <stdexcept>

#include "common/dynamic_library.h"

#if __has_include(<xcb/xcb.h>)
#include <xcb/xcb.h>
#define KL_HAVE_XCB_HEADERS 1
#else
#define KL_HAVE_XCB_HEADERS 0
#endif

namespace kl::napi::bench {

#if KL_HAVE_XCB_HEADERS

// The libxcb functions the window needs, looked up by name (their types from <xcb/xcb.h>).
#define KL_XCB_FUNCTIONS(X)                                                                                               \
  X(xcb_connect) X(xcb_connection_has_error) X(xcb_disconnect) X(xcb_get_setup) X(xcb_setup_roots_iterator)                \
      X(xcb_generate_id) X(xcb_create_window) X(xcb_map_window) X(xcb_destroy_window) X(xcb_get_input_focus) \
          X(xcb_get_input_focus_reply) X(xcb_flush)

struct XcbWindow::Library {
  std::shared_ptr<DynamicLibrary> handle;
#define KL_XCB_MEMBER(fn) decltype(&::fn) fn = nullptr;
  KL_XCB_FUNCTIONS(KL_XCB_MEMBER)
#undef KL_XCB_MEMBER
};

std::unique_ptr<XcbWindow> XcbWindow::Open(const std::string& display, uint16_t width, uint16_t height) {
  auto lib = std::make_shared<Library>();
  try {
    lib->handle = DynamicLibrary::Open("libxcb.so.1");
#define KL_XCB_LOOKUP(fn) lib->fn = lib->handle->RequireFunction<decltype(&::fn)>(#fn);
    KL_XCB_FUNCTIONS(KL_XCB_LOOKUP)
#undef KL_XCB_LOOKUP
  } catch (const LibraryError& e) {
    throw std::runtime_error(std::string("libxcb: ") + e.what());
  }
  xcb_connection_t* c = lib->xcb_connect(display.c_str(), nullptr);
  if (c == nullptr || lib->xcb_connection_has_error(c) != 0) {
    if (c != nullptr) lib->xcb_disconnect(c);
    throw std::runtime_error("xcb_connect(\"" + display + "\") failed: no X server accepts clients there");
  }
  const xcb_screen_t* screen = lib->xcb_setup_roots_iterator(lib->xcb_get_setup(c)).data;
  const xcb_window_t window = lib->xcb_generate_id(c);
  const uint32_t values[] = {screen->black_pixel};
  lib->xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, width, height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                         XCB_CW_BACK_PIXEL, values);
  lib->xcb_map_window(c, window);
  // A round trip: the window exists on the server before a driver's connection names it.
  free(lib->xcb_get_input_focus_reply(c, lib->xcb_get_input_focus(c), nullptr));
  return std::unique_ptr<XcbWindow>(new XcbWindow(std::move(lib), c, window));
}

XcbWindow::~XcbWindow() {
  library_->xcb_destroy_window(connection_, window_);
  library_->xcb_flush(connection_);
  library_->xcb_disconnect(connection_);
}

#else

struct XcbWindow::Library {};

std::unique_ptr<XcbWindow> XcbWindow::Open(const std::string&, uint16_t, uint16_t) {
  throw std::runtime_error("the tools addon was built without the XCB headers (libxcb1-dev): no window to present to");
}

XcbWindow::~XcbWindow() = default;

#endif

XcbWindow::XcbWindow(std::shared_ptr<Library> library, xcb_connection_t* connection, uint32_t window) noexcept
    : library_(std::move(library)), connection_(connection), window_(window) {}

}  // namespace kl::napi::bench
