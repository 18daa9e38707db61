// The generic marshaller of the generated bindings, shared by OpenXR and Vulkan: it interprets
// one API's tables (marshal_tables.h; rows generated into native/generated/openxr_marshal.h and
// vulkan_marshal.h) to write plain JavaScript objects into native structures and read native
// structures back into plain objects. Nothing here knows a particular structure, command or API.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "addon/marshal/marshal_tables.h"

namespace kl::marshal {

// Every native allocation of one call (structures, arrays, strings): zeroed, freed together.
class Arena {
 public:
  void* Allocate(std::size_t size, std::size_t align = alignof(std::max_align_t));
  const char* CopyString(const std::string& s);

 private:
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
};

// A two-call array inside an output structure (XrVisibilityMaskKHR.vertices): where its capacity,
// count output and pointer live, so a second call can size it.
struct PendingTwoCall {
  std::byte* base;  // the structure holding the triple
  const Field* array;
  const Field* capacity;
  const Field* countOutput;
  Napi::Value elementTemplate;
};

// Sees every handle the marshaller writes from JavaScript (a field whose typeIndex names a handle
// type), before any call: the Vulkan bindings refuse destroyed and unknown handles here.
class HandleHook {
 public:
  virtual ~HandleHook() = default;
  virtual void CheckHandle(const Field& f, std::uint64_t value, const std::string& where) = 0;
};

class StructMarshaller {
 public:
  StructMarshaller(Napi::Env env, Arena& arena, const Tables& tables, HandleHook* hook = nullptr)
      : env_(env), arena_(arena), tables_(tables), hook_(hook) {}
  // Writes `value` (an object, or undefined for an output structure the runtime fills) into
  // `dst`, which holds kStructs[index].size zeroed bytes. `where` names the value in errors.
  void WriteStruct(std::uint32_t index, std::byte* dst, Napi::Value value, const std::string& where);
  // A fresh, zeroed, written structure; a base header (or an object whose `type` names a
  // structure that specializes it) takes the structure its `type` names.
  std::byte* NewStruct(std::uint32_t index, Napi::Value value, const std::string& where, std::uint32_t* actualIndex = nullptr);
  Napi::Value ReadStruct(std::uint32_t index, const std::byte* src);

  // One value of a scalar kind; `where` names it in errors.
  void WriteScalar(Scalar kind, void* dst, Napi::Value value, const std::string& where);
  // One value of a field's scalar: an enum also by its name, a handle checked by the hook.
  void WriteFieldScalar(const Field& f, void* dst, Napi::Value value, const std::string& where);
  Napi::Value ReadScalar(Scalar kind, const void* src);
  static std::size_t ScalarSize(Scalar kind);

  // Writes a JS array of elements (structures or scalars) into a fresh native array.
  void* WriteArray(const Field& f, Napi::Value value, std::uint32_t* count, const std::string& where);
  // `elementStruct` >= 0: the elements are that structure (a specialization of the field's base header).
  Napi::Value ReadArray(const Field& f, const void* data, std::uint32_t count, std::int32_t elementStruct = -1);
  // `count` zeroed elements of the field's type, structures written from `elementTemplate` (whose
  // type may name a structure that specializes the field's base header: *elementStruct says which).
  void* NewElements(const Field& f, std::uint32_t count, Napi::Value elementTemplate, const std::string& where,
                    std::int32_t* elementStruct = nullptr);
  // The structure a template's type names for a field of base-header type (the field's own otherwise).
  std::int32_t ElementStruct(const Field& f, Napi::Value elementTemplate, const std::string& where);

  std::vector<PendingTwoCall>& pendingTwoCalls() { return pending_; }

  // The structure whose structure type is `type`, or -1.
  std::int32_t StructForType(std::int32_t type) const { return tables_.StructForType(type); }
  std::size_t ElementSize(const Field& f) const;
  const Tables& tables() const { return tables_; }

  Napi::TypeError Error(const std::string& where, const std::string& message) const;

  // A count member or parameter's value, and storing one (32 or 64 bits as the table says).
  static std::uint64_t LoadCount(const Field& f, const std::byte* base);
  static void StoreCount(const Field& f, std::byte* base, std::uint64_t count);

 private:
  void WriteField(const Struct& s, const Field* fields, std::uint16_t i, std::byte* dst, Napi::Object o,
                  const std::string& where);
  void WriteNext(const Struct& s, std::byte* dst, Napi::Value next, const std::string& where);
  Napi::Value ReadNext(const void* next);
  void WriteCharArray(char* dst, std::size_t size, Napi::Value value, const std::string& where);

  Napi::Env env_;
  Arena& arena_;
  const Tables& tables_;
  HandleHook* hook_;
  std::vector<PendingTwoCall> pending_;
};

}  // namespace kl::marshal
