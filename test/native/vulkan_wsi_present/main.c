/* kl_vk_wsi_present <libvulkan> <display> <mode> <rrggbb> <validation 0|1>: present.c through a
 * loader library in its own process (the Khronos loader, for comparison); prints the report. */
#include <stdio.h>
#include <stdlib.h>

int kl_wsi_present(const char* loaderPath, int noload, const char* displayName, const char* mode, unsigned rgb, int validation, char* report,
                   size_t size);

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s <libvulkan> <display> <mode> <rrggbb> <validation>\n", argv[0]);
    return 2;
  }
  char report[1024];
  const int rc = kl_wsi_present(argv[1], 0, argv[2], argv[3], (unsigned)strtoul(argv[4], NULL, 16), atoi(argv[5]), report, sizeof(report));
  printf("%s\n", report);
  return rc == 0 ? 0 : 1;
}
