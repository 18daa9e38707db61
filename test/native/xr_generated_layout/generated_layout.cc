// Prints one line per structure of the generated bindings' marshal tables ("XrFoo size 40 align 8")
// and one per member ("XrFoo.bar offset 16"), in table order.
#include <cstdio>

#include "generated/openxr_marshal.h"

int main() {
  namespace marshal = khronos_loader::generated::marshal;
  for (const marshal::Struct& s : marshal::kStructs) {
    std::printf("%s size %u align %u\n", s.name, s.size, s.align);
    for (unsigned i = 0; i < s.fieldCount; ++i) {
      const marshal::Field& f = marshal::kFields[s.firstField + i];
      std::printf("%s.%s offset %u\n", s.name, f.name, f.offset);
    }
  }
  return 0;
}
