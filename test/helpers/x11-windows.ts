// Windows for the window-system tests, made in the test process through libX11 and libxcb (koffi),
// on a private Xvfb (test/helpers/xvfb.ts): the handles as Node window libraries hand them out,
// the window's pixels read back from the X server, a window resized, the default visual's id.
import koffi, { type TypeObject } from 'koffi';

export const LIBX11 = '/usr/lib/x86_64-linux-gnu/libX11.so.6';
export const LIBXCB = '/usr/lib/x86_64-linux-gnu/libxcb.so.1';

/** The few libX11 functions the test needs: a window to present to, and its pixels read back. */
export function openX11(display: string) {
  const x = koffi.load(LIBX11);
  const XOpenDisplay = x.func('void *XOpenDisplay(const char *name)');
  const XDefaultScreen = x.func('int XDefaultScreen(void *display)');
  const XRootWindow = x.func('unsigned long XRootWindow(void *display, int screen)');
  const XCreateSimpleWindow = x.func('unsigned long XCreateSimpleWindow(void *display, unsigned long parent, int x, int y, unsigned int w, unsigned int h, unsigned int border, unsigned long borderPixel, unsigned long background)');
  const XMapWindow = x.func('int XMapWindow(void *display, unsigned long window)');
  const XSync = x.func('int XSync(void *display, int discard)');
  const XGetImage = x.func('void *XGetImage(void *display, unsigned long drawable, int x, int y, unsigned int w, unsigned int h, unsigned long planes, int format)');
  const XGetPixel = x.func('unsigned long XGetPixel(void *image, int x, int y)');
  const XDestroyImage = x.func('int XDestroyImage(void *image)');
  const XCloseDisplay = x.func('int XCloseDisplay(void *display)');
  const XResizeWindow = x.func('int XResizeWindow(void *display, unsigned long window, unsigned int w, unsigned int h)');
  const XDefaultVisual = x.func('void *XDefaultVisual(void *display, int screen)');
  const XVisualIDFromVisual = x.func('unsigned long XVisualIDFromVisual(void *visual)');
  const dpy: unknown = XOpenDisplay(display);
  if (dpy === null) throw new Error(`XOpenDisplay(${display}) failed`);
  const screen = XDefaultScreen(dpy) as number;
  const root = XRootWindow(dpy, screen) as number | bigint;
  return {
    pointer: koffi.address(dpy) as bigint,
    /** The default screen's default visual (a VisualID), for the presentation-support query. */
    visualId: BigInt(XVisualIDFromVisual(XDefaultVisual(dpy, screen)) as number | bigint),
    /** XResizeWindow, then XSync: the server has the new size when it returns. */
    resize(window: bigint, width: number, height: number): void {
      XResizeWindow(dpy, window, width, height);
      XSync(dpy, 0);
    },
    createWindow(width: number, height: number): bigint {
      const window = BigInt(XCreateSimpleWindow(dpy, root, 0, 0, width, height, 0, 0, 0) as number | bigint);
      XMapWindow(dpy, window);
      XSync(dpy, 0);
      return window;
    },
    /** The window's pixel at (x, y) as 0xRRGGBB (ZPixmap of the 24-bit TrueColor screen). */
    pixel(window: bigint, px: number, py: number): number {
      const image: unknown = XGetImage(dpy, window, px, py, 1, 1, 0xffffffff, 2);
      if (image === null) return -1;
      const value = Number(XGetPixel(image, 0, 0) as number | bigint) & 0xffffff;
      XDestroyImage(image);
      return value;
    },
    close(): void {
      XCloseDisplay(dpy);
    },
  };
}

/** An XCB connection to the same server and a window made through it (its id is an XID Xlib reads back too). */
// koffi's struct types are named process-wide: made once, for every connection.
let xcbTypes: { cookie: TypeObject; iterator: TypeObject } | undefined;

export function openXcb(display: string) {
  const xcb = koffi.load(LIBXCB);
  xcbTypes ??= {
    cookie: koffi.struct('kl_xcb_void_cookie_t', { sequence: 'uint' }),
    iterator: koffi.struct('kl_xcb_screen_iterator_t', { data: 'void *', rem: 'int', index: 'int' }),
  };
  const { cookie, iterator } = xcbTypes;
  const xcb_connect = xcb.func('void *xcb_connect(const char *display, int *screen)');
  const xcb_connection_has_error = xcb.func('int xcb_connection_has_error(void *c)');
  const xcb_get_setup = xcb.func('void *xcb_get_setup(void *c)');
  const xcb_setup_roots_iterator = xcb.func('xcb_setup_roots_iterator', iterator, ['void *']);
  const xcb_generate_id = xcb.func('uint32_t xcb_generate_id(void *c)');
  const xcb_create_window = xcb.func('xcb_create_window', cookie, ['void *', 'uint8_t', 'uint32_t', 'uint32_t', 'int16_t', 'int16_t', 'uint16_t', 'uint16_t', 'uint16_t', 'uint16_t', 'uint32_t', 'uint32_t', 'void *']);
  const xcb_map_window = xcb.func('xcb_map_window', cookie, ['void *', 'uint32_t']);
  const xcb_flush = xcb.func('int xcb_flush(void *c)');
  const xcb_disconnect = xcb.func('void xcb_disconnect(void *c)');
  const c: unknown = xcb_connect(display, null);
  if (xcb_connection_has_error(c) !== 0) throw new Error(`xcb_connect(${display}) failed`);
  const screen = xcb_setup_roots_iterator(xcb_get_setup(c)) as { data: unknown };
  const root = koffi.decode(screen.data, 'uint32_t') as number; // xcb_screen_t.root is its first member
  // xcb_screen_t: root, default_colormap, white_pixel, black_pixel, current_input_masks (5 × 4 bytes),
  // six 16-bit fields (12 bytes), then root_visual.
  const rootVisual = koffi.decode(screen.data, 32, 'uint32_t') as number;
  return {
    pointer: koffi.address(c) as bigint,
    /** The first screen's root visual (an xcb_visualid_t), for the presentation-support query. */
    visualId: rootVisual,
    createWindow(width: number, height: number): number {
      const window = xcb_generate_id(c) as number;
      // depth and visual XCB_COPY_FROM_PARENT (0), class XCB_WINDOW_CLASS_INPUT_OUTPUT (1), no values.
      xcb_create_window(c, 0, window, root, 0, 0, width, height, 0, 1, 0, 0, null);
      xcb_map_window(c, window);
      xcb_flush(c);
      return window;
    },
    close(): void {
      xcb_disconnect(c);
    },
  };
}
