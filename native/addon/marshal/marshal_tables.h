// The row types of the generated marshal tables, shared by both APIs: the generated headers
// (native/generated/openxr_marshal.h, vulkan_marshal.h) fill arrays of them, and the one generic
// marshaller (struct_marshaller.h) interprets whichever API's tables it is given. What each
// column means: scripts/generator/marshal-model.ts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>

namespace kl::marshal {

/** How one value is stored. */
enum class Scalar : std::uint8_t { None, Bool32, U8, I8, U16, I16, U32, I32, U64, I64, F32, F64, Enum, Handle, Char, Address };

/** How a member or parameter is laid out around its value. */
enum class Shape : std::uint8_t { StructureType, Next, Value, String, StringArray, Array, PointerArray, Pointer, Count, Capacity, CountOutput, Unsupported };

inline constexpr std::uint8_t kOptional = 1;        // may be omitted or null
inline constexpr std::uint8_t kOutput = 2;          // written by the runtime or driver
inline constexpr std::uint8_t kSizedBySibling = 4;  // an output array sized by the count an input array sets
inline constexpr std::uint8_t kRequired = 8;        // Unsupported but required (a function pointer): refused when absent
inline constexpr std::uint8_t kLenBytes = 16;       // the count holds the array's size in bytes

/** A structure member (offset meaningful) or a command parameter (offset 0). */
struct Field {
  const char* name;
  std::uint32_t offset;
  Scalar scalar;
  Shape shape;
  std::uint8_t flags;
  std::int16_t structIndex;       // nested / pointed-to structure, -1 for none
  std::uint16_t fixedCount;       // fixed array length (char: buffer size), 1 otherwise
  std::int16_t lenIndex;          // the count of an array, or the array of a count
  std::int16_t countOutputIndex;  // two-call arrays: the count the runtime writes
  std::int16_t typeIndex;         // Enum: its group (names accepted); Handle: its handle type; -1
  std::int16_t lenMember;         // an array sized by a member of another parameter: that member's index
};

struct Struct {
  const char* name;
  std::uint32_t size;
  std::uint32_t align;
  std::int32_t structureType;  // 0: no type member
  std::uint32_t firstField;
  std::uint16_t fieldCount;
  std::uint16_t extenderCount;  // extenders[firstExtender...]: what its next chain may hold
  std::uint32_t firstExtender;
  std::uint16_t childCount;     // children[firstChild...]: what may stand behind a pointer to this base header
  std::uint32_t firstChild;
  bool isUnion;                 // a C union: the JavaScript object names exactly one member
};

struct EnumValue {
  const char* name;
  std::int32_t value;
};

struct EnumGroup {
  const char* name;
  std::uint32_t firstValue;  // enumValues[firstValue...]
  std::uint32_t valueCount;
};

/** One API's tables, with the index of structures by type built once from them. */
class Tables {
 public:
  struct Raw {
    const Struct* structs;
    std::size_t structCount;
    const Field* fields;
    const std::uint16_t* extenders;
    const std::uint16_t* children;
    const EnumGroup* enumGroups;
    std::size_t enumGroupCount;
    const EnumValue* enumValues;
    const char* typeMember;  // "type" (OpenXR) or "sType" (Vulkan): the member that names a structure
    const char* structureTypeName;  // "XrStructureType" / "VkStructureType", for messages
    bool requirePointers;           // a required pointer member left out is refused (Vulkan), not passed as null
  };
  explicit Tables(const Raw& raw) : raw_(raw) {
    for (std::size_t i = 0; i < raw.structCount; ++i) {
      if (raw.structs[i].structureType != 0) byType_.emplace(raw.structs[i].structureType, static_cast<std::int32_t>(i));
    }
  }
  const Struct& StructAt(std::uint32_t index) const { return raw_.structs[index]; }
  const Field* FieldsOf(const Struct& s) const { return &raw_.fields[s.firstField]; }
  std::uint16_t Extender(std::uint32_t i) const { return raw_.extenders[i]; }
  std::uint16_t Child(std::uint32_t i) const { return raw_.children[i]; }
  const char* typeMember() const { return raw_.typeMember; }
  const char* structureTypeName() const { return raw_.structureTypeName; }
  bool requirePointers() const { return raw_.requirePointers; }
  // The structure whose structure type is `type`, or -1.
  std::int32_t StructForType(std::int32_t type) const {
    const auto it = byType_.find(type);
    return it == byType_.end() ? -1 : it->second;
  }
  // An enum value by name in group `group`; false when the group has no such name.
  bool EnumByName(std::int16_t group, std::string_view name, std::int32_t* value) const {
    if (group < 0 || static_cast<std::size_t>(group) >= raw_.enumGroupCount) return false;
    const EnumGroup& g = raw_.enumGroups[group];
    for (std::uint32_t i = 0; i < g.valueCount; ++i) {
      if (name == raw_.enumValues[g.firstValue + i].name) {
        *value = raw_.enumValues[g.firstValue + i].value;
        return true;
      }
    }
    return false;
  }
  const char* EnumGroupName(std::int16_t group) const {
    return group < 0 || static_cast<std::size_t>(group) >= raw_.enumGroupCount ? "enum" : raw_.enumGroups[group].name;
  }

 private:
  Raw raw_;
  std::unordered_map<std::int32_t, std::int32_t> byType_;
};

}  // namespace kl::marshal
