// The file name the package's build gives a shared library on each platform: libX.so on Linux
// (and other ELF systems), X.dll on Windows (cmake/Windows.cmake drops the "lib" prefix), so the
// libraries shipped beside the addon are found on both.
export function sharedLibraryFileName(stem: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `${stem}.dll` : `lib${stem}.so`;
}
