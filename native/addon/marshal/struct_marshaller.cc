#include "addon/marshal/struct_marshaller.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "addon/errors.h"

namespace kl::marshal {

void* Arena::Allocate(std::size_t size, std::size_t align) {
  // new[] of std::byte is aligned for any fundamental type; every request fits that alignment.
  (void)align;
  auto block = std::make_unique<std::byte[]>(size == 0 ? 1 : size);  // value-initialized: zeroed
  void* p = block.get();
  blocks_.push_back(std::move(block));
  return p;
}

const char* Arena::CopyString(const std::string& s) {
  char* p = static_cast<char*>(Allocate(s.size() + 1));
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

namespace {

bool IsAbsent(const Napi::Value& v) { return v.IsUndefined() || v.IsNull(); }

// Every structure with a type member starts { int32 type; void* next; } (XrBaseOutStructure,
// VkBaseOutStructure): the next pointer sits one pointer in.
constexpr std::size_t kNextOffset = sizeof(void*);

const void* NextOf(const void* structure) {
  const void* next = nullptr;
  std::memcpy(&next, static_cast<const std::byte*>(structure) + kNextOffset, sizeof next);
  return next;
}

}  // namespace

std::uint64_t StructMarshaller::LoadCount(const Field& f, const std::byte* base) {
  switch (f.scalar) {
    case Scalar::U64:
    case Scalar::I64: {
      std::uint64_t v;
      std::memcpy(&v, base + f.offset, sizeof v);
      return v;
    }
    default: {
      std::uint32_t v;
      std::memcpy(&v, base + f.offset, sizeof v);
      return v;
    }
  }
}

void StructMarshaller::StoreCount(const Field& f, std::byte* base, std::uint64_t count) {
  if (f.scalar == Scalar::U64 || f.scalar == Scalar::I64) {
    std::memcpy(base + f.offset, &count, sizeof count);
  } else {
    const auto v = static_cast<std::uint32_t>(count);
    std::memcpy(base + f.offset, &v, sizeof v);
  }
}

Napi::TypeError StructMarshaller::Error(const std::string& where, const std::string& message) const {
  return kl::napi::ArgumentError(env_, where + ": " + message);
}

std::size_t StructMarshaller::ScalarSize(Scalar kind) {
  switch (kind) {
    case Scalar::U8:
    case Scalar::I8:
    case Scalar::Char:
      return 1;
    case Scalar::U16:
    case Scalar::I16:
      return 2;
    case Scalar::U64:
    case Scalar::I64:
    case Scalar::F64:
    case Scalar::Handle:
    case Scalar::Address:
      return 8;
    case Scalar::None:
      return 0;
    default:
      return 4;
  }
}

std::size_t StructMarshaller::ElementSize(const Field& f) const {
  if (f.structIndex >= 0) return tables_.StructAt(static_cast<std::uint32_t>(f.structIndex)).size;
  // `void*` with a length is a byte buffer.
  if (f.scalar == Scalar::Address && f.shape == Shape::Array) return 1;
  return ScalarSize(f.scalar);
}

void StructMarshaller::WriteScalar(Scalar kind, void* dst, Napi::Value v, const std::string& where) {
  auto integer = [&](double lo, double hi) -> double {
    if (!v.IsNumber()) throw Error(where, "must be a number");
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!std::isfinite(d) || std::trunc(d) != d || d < lo || d > hi) throw Error(where, "must be an integer in [" + std::to_string(static_cast<long long>(lo)) + ", " + std::to_string(static_cast<long long>(hi)) + "]");
    return d;
  };
  auto store = [&](auto value) { std::memcpy(dst, &value, sizeof value); };
  switch (kind) {
    case Scalar::Bool32:
      if (v.IsBoolean()) store(static_cast<std::uint32_t>(v.As<Napi::Boolean>().Value() ? 1 : 0));
      else store(static_cast<std::uint32_t>(integer(0, 1)));
      return;
    case Scalar::U8:
    case Scalar::Char:
      store(static_cast<std::uint8_t>(integer(kind == Scalar::Char ? -128 : 0, 255)));
      return;
    case Scalar::I8:
      store(static_cast<std::int8_t>(integer(-128, 127)));
      return;
    case Scalar::U16:
      store(static_cast<std::uint16_t>(integer(0, 65535)));
      return;
    case Scalar::I16:
      store(static_cast<std::int16_t>(integer(-32768, 32767)));
      return;
    case Scalar::U32:
      store(static_cast<std::uint32_t>(integer(0, 4294967295.0)));
      return;
    case Scalar::I32:
    case Scalar::Enum:
      store(static_cast<std::int32_t>(integer(-2147483648.0, 2147483647.0)));
      return;
    case Scalar::F32:
      if (!v.IsNumber()) throw Error(where, "must be a number");
      store(v.As<Napi::Number>().FloatValue());
      return;
    case Scalar::F64:
      if (!v.IsNumber()) throw Error(where, "must be a number");
      store(v.As<Napi::Number>().DoubleValue());
      return;
    case Scalar::U64:
    case Scalar::I64:
    case Scalar::Handle:
    case Scalar::Address: {
      if (v.IsBigInt()) {
        bool lossless = true;
        if (kind == Scalar::I64) {
          store(v.As<Napi::BigInt>().Int64Value(&lossless));
        } else {
          store(v.As<Napi::BigInt>().Uint64Value(&lossless));
        }
        if (!lossless) throw Error(where, "does not fit in 64 bits");
        return;
      }
      // A safe integer is accepted where a bigint is expected (times, paths, flags).
      const double limit = 9007199254740991.0;
      const double d = integer(kind == Scalar::I64 ? -limit : 0, limit);
      if (kind == Scalar::I64) store(static_cast<std::int64_t>(d));
      else store(static_cast<std::uint64_t>(d));
      return;
    }
    case Scalar::None:
      throw Error(where, "has no value the bindings can write");
  }
}

Napi::Value StructMarshaller::ReadScalar(Scalar kind, const void* src) {
  auto load = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, src, sizeof v);
    return v;
  };
  switch (kind) {
    case Scalar::Bool32:
      return Napi::Boolean::New(env_, load(std::uint32_t{}) != 0);
    case Scalar::U8:
      return Napi::Number::New(env_, load(std::uint8_t{}));
    case Scalar::I8:
    case Scalar::Char:
      return Napi::Number::New(env_, load(std::int8_t{}));
    case Scalar::U16:
      return Napi::Number::New(env_, load(std::uint16_t{}));
    case Scalar::I16:
      return Napi::Number::New(env_, load(std::int16_t{}));
    case Scalar::U32:
      return Napi::Number::New(env_, load(std::uint32_t{}));
    case Scalar::I32:
    case Scalar::Enum:
      return Napi::Number::New(env_, load(std::int32_t{}));
    case Scalar::F32:
      return Napi::Number::New(env_, load(float{}));
    case Scalar::F64:
      return Napi::Number::New(env_, load(double{}));
    case Scalar::I64:
      return Napi::BigInt::New(env_, load(std::int64_t{}));
    case Scalar::U64:
    case Scalar::Handle:
    case Scalar::Address:
      return Napi::BigInt::New(env_, load(std::uint64_t{}));
    case Scalar::None:
      break;
  }
  return env_.Undefined();
}

void StructMarshaller::WriteFieldScalar(const Field& f, void* dst, Napi::Value v, const std::string& where) {
  if (f.scalar == Scalar::Enum && f.typeIndex >= 0 && v.IsString()) {
    // An enum value by its registry name (VK_FORMAT_R8G8B8A8_UNORM).
    std::int32_t value = 0;
    const std::string name = v.As<Napi::String>().Utf8Value();
    if (!tables_.EnumByName(f.typeIndex, name, &value)) {
      throw Error(where, "\"" + name + "\" is not a value of " + tables_.EnumGroupName(f.typeIndex));
    }
    std::memcpy(dst, &value, sizeof value);
    return;
  }
  WriteScalar(f.scalar, dst, v, where);
  if (f.scalar == Scalar::Handle && hook_ != nullptr && f.typeIndex >= 0) {
    std::uint64_t handle = 0;
    std::memcpy(&handle, dst, sizeof handle);
    hook_->CheckHandle(f, handle, where);
  }
}

void StructMarshaller::WriteCharArray(char* dst, std::size_t size, Napi::Value v, const std::string& where) {
  if (!v.IsString()) throw Error(where, "must be a string");
  const std::string s = v.As<Napi::String>().Utf8Value();
  if (s.size() > size - 1) throw Error(where, "is " + std::to_string(s.size()) + " bytes in UTF-8; it holds at most " + std::to_string(size - 1));
  if (s.find('\0') != std::string::npos) throw Error(where, "contains a NUL character");
  std::memcpy(dst, s.c_str(), s.size() + 1);
}

std::byte* StructMarshaller::NewStruct(std::uint32_t index, Napi::Value value, const std::string& where, std::uint32_t* actualIndex) {
  std::uint32_t chosen = index;
  if (value.IsObject()) {
    Napi::Value type = value.As<Napi::Object>().Get(tables_.typeMember());
    if (type.IsNumber()) {
      const std::int32_t t = type.As<Napi::Number>().Int32Value();
      const Struct& declared = tables_.StructAt(index);
      if (t != declared.structureType) {
        const std::int32_t concrete = StructForType(t);
        // A base header (no fixed type of its own) stands for the structures that specialize it
        // (the registry's parentstruct; any structure when the registry names none).
        bool specializes = declared.structureType == 0 && concrete >= 0 && declared.childCount == 0;
        for (std::uint16_t c = 0; c < declared.childCount && concrete >= 0; ++c) {
          specializes = specializes || tables_.Child(declared.firstChild + c) == static_cast<std::uint16_t>(concrete);
        }
        if (!specializes) {
          const std::string actual = concrete < 0 ? "no structure has that type" : tables_.StructAt(static_cast<std::uint32_t>(concrete)).name;
          throw Error(where, "type " + std::to_string(t) + " (" + actual + ") is not " + declared.name + (declared.structureType == 0 ? " or a structure that specializes it" : ""));
        }
        chosen = static_cast<std::uint32_t>(concrete);
      }
    }
  }
  const Struct& s = tables_.StructAt(chosen);
  auto* p = static_cast<std::byte*>(arena_.Allocate(s.size, s.align));
  WriteStruct(chosen, p, value, where);
  if (actualIndex != nullptr) *actualIndex = chosen;
  return p;
}

void StructMarshaller::WriteStruct(std::uint32_t index, std::byte* dst, Napi::Value value, const std::string& where) {
  const Struct& s = tables_.StructAt(index);
  if (!IsAbsent(value) && !value.IsObject()) throw Error(where, std::string("must be an object (") + s.name + ")");
  const Field* fields = tables_.FieldsOf(s);
  if (!value.IsObject()) {
    // Nothing given (a structure the runtime fills): its type, and its two-call arrays to size later.
    for (std::uint16_t i = 0; i < s.fieldCount; ++i) {
      const Field& f = fields[i];
      if (f.shape == Shape::StructureType && s.structureType != 0) std::memcpy(dst + f.offset, &s.structureType, sizeof s.structureType);
      if (f.shape == Shape::Array && f.countOutputIndex >= 0) {
        pending_.push_back({dst, &f, &fields[f.lenIndex], &fields[f.countOutputIndex], env_.Undefined()});
      }
    }
    return;
  }
  Napi::Object o = value.As<Napi::Object>();
  if (s.isUnion) {
    // A union: the object names exactly one member, the one written.
    std::int32_t chosen = -1;
    for (std::uint16_t i = 0; i < s.fieldCount; ++i) {
      if (IsAbsent(o.Get(fields[i].name))) continue;
      if (chosen >= 0) throw Error(where, std::string(s.name) + " is a union: give one of its members, not " + fields[chosen].name + " and " + fields[i].name);
      chosen = i;
    }
    if (chosen < 0) {
      std::string names;
      for (std::uint16_t i = 0; i < s.fieldCount; ++i) names += std::string(i == 0 ? "" : ", ") + fields[i].name;
      throw Error(where, std::string(s.name) + " is a union: give exactly one of " + names);
    }
    WriteField(s, fields, static_cast<std::uint16_t>(chosen), dst, o, where);
    return;
  }
  for (std::uint16_t i = 0; i < s.fieldCount; ++i) WriteField(s, fields, i, dst, o, where);
}

std::int32_t StructMarshaller::ElementStruct(const Field& f, Napi::Value elementTemplate, const std::string& where) {
  if (f.structIndex < 0 || !elementTemplate.IsObject()) return f.structIndex;
  std::uint32_t actual = static_cast<std::uint32_t>(f.structIndex);
  // NewStruct checks the template's type against the base header (a scratch copy, then dropped).
  NewStruct(static_cast<std::uint32_t>(f.structIndex), elementTemplate, where, &actual);
  return static_cast<std::int32_t>(actual);
}

void* StructMarshaller::NewElements(const Field& f, std::uint32_t count, Napi::Value elementTemplate, const std::string& where,
                                    std::int32_t* elementStruct) {
  const std::int32_t element = ElementStruct(f, elementTemplate, where);
  if (elementStruct != nullptr) *elementStruct = element;
  const std::size_t size = element >= 0 ? tables_.StructAt(static_cast<std::uint32_t>(element)).size : ElementSize(f);
  auto* p = static_cast<std::byte*>(arena_.Allocate(size * count));
  if (element >= 0) {
    for (std::uint32_t k = 0; k < count; ++k) {
      WriteStruct(static_cast<std::uint32_t>(element), p + k * size, elementTemplate, where + "[" + std::to_string(k) + "]");
    }
  }
  return p;
}

void* StructMarshaller::WriteArray(const Field& f, Napi::Value v, std::uint32_t* count, const std::string& where) {
  if (f.scalar == Scalar::Address && f.structIndex < 0) {
    // A byte buffer: a Uint8Array (or Buffer).
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) throw Error(where, "must be a Uint8Array");
    Napi::Uint8Array bytes = v.As<Napi::Uint8Array>();
    void* p = arena_.Allocate(bytes.ByteLength());
    std::memcpy(p, bytes.Data(), bytes.ByteLength());
    *count = static_cast<std::uint32_t>(bytes.ByteLength());
    return p;
  }
  if (f.scalar == Scalar::Char && f.structIndex < 0) {
    // A char buffer with a length: a string (its terminator counted, as the registry's sizes do).
    if (!v.IsString()) throw Error(where, "must be a string");
    const std::string s = v.As<Napi::String>().Utf8Value();
    *count = static_cast<std::uint32_t>(s.size() + 1);
    return const_cast<char*>(arena_.CopyString(s));
  }
  if (!v.IsArray()) throw Error(where, "must be an array");
  Napi::Array a = v.As<Napi::Array>();
  const std::uint32_t n = a.Length();
  const std::size_t size = ElementSize(f);
  auto* p = static_cast<std::byte*>(arena_.Allocate(size * n));
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::string at = where + "[" + std::to_string(k) + "]";
    if (f.structIndex >= 0) {
      WriteStruct(static_cast<std::uint32_t>(f.structIndex), p + k * size, a.Get(k), at);
    } else {
      WriteFieldScalar(f, p + k * size, a.Get(k), at);
    }
  }
  *count = n;
  return p;
}

void StructMarshaller::WriteNext(const Struct& s, std::byte* dst, Napi::Value next, const std::string& where) {
  if (IsAbsent(next)) return;
  std::vector<Napi::Value> chain;
  if (next.IsArray()) {
    Napi::Array a = next.As<Napi::Array>();
    for (std::uint32_t k = 0; k < a.Length(); ++k) chain.push_back(a.Get(k));
  } else {
    chain.push_back(next);
  }
  void** link = reinterpret_cast<void**>(dst + kNextOffset);
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const std::string at = where + ".next[" + std::to_string(k) + "]";
    Napi::Value element = chain[k];
    Napi::Value type = element.IsObject() ? element.As<Napi::Object>().Get(tables_.typeMember()) : env_.Undefined();
    if (!type.IsNumber()) throw Error(at, std::string("must be an object with a numeric ") + tables_.typeMember() + " (its " + tables_.structureTypeName() + ")");
    const std::int32_t index = StructForType(type.As<Napi::Number>().Int32Value());
    bool allowed = false;
    for (std::uint16_t e = 0; e < s.extenderCount && index >= 0; ++e) {
      allowed = allowed || tables_.Extender(s.firstExtender + e) == static_cast<std::uint16_t>(index);
    }
    if (!allowed) {
      const std::string name = index < 0 ? "type " + std::to_string(type.As<Napi::Number>().Int32Value()) : tables_.StructAt(static_cast<std::uint32_t>(index)).name;
      throw Error(at, name + " may not extend " + s.name + " (the registry's structextends)");
    }
    std::byte* node = NewStruct(static_cast<std::uint32_t>(index), element, at);
    *link = node;
    link = reinterpret_cast<void**>(node + kNextOffset);
  }
}

void StructMarshaller::WriteField(const Struct& s, const Field* fields, std::uint16_t i, std::byte* dst, Napi::Object o,
                                  const std::string& where) {
  const Field& f = fields[i];
  std::byte* p = dst + f.offset;
  const std::string at = where + "." + f.name;
  switch (f.shape) {
    case Shape::StructureType: {
      const std::int32_t t = s.structureType;
      if (t != 0) std::memcpy(p, &t, sizeof t);
      return;
    }
    case Shape::Next:
      WriteNext(s, dst, o.Get(f.name), where);
      return;
    case Shape::Count:
    case Shape::Capacity:
    case Shape::CountOutput:
      return;  // set by the array that names them
    default:
      break;
  }
  Napi::Value v = o.Get(f.name);
  if (IsAbsent(v)) {
    if (tables_.requirePointers() && (f.flags & kOptional) == 0 && (f.shape == Shape::Pointer || f.shape == Shape::String)) {
      throw Error(at, "is required");
    }
    if (f.shape == Shape::Unsupported && (f.flags & kRequired) != 0) {
      throw Error(at, "is a function pointer the generated bindings cannot pass (null only), and " + std::string(s.name) + " needs one");
    }
    // A two-call array left to the bindings: sized by a second call once the count is known.
    if (f.shape == Shape::Array && f.countOutputIndex >= 0) {
      pending_.push_back({dst, &f, &fields[f.lenIndex], &fields[f.countOutputIndex], env_.Undefined()});
    }
    return;  // zero: absent members keep the zero the arena gave them
  }
  switch (f.shape) {
    case Shape::Value:
      if (f.structIndex >= 0) {
        const std::size_t size = tables_.StructAt(static_cast<std::uint32_t>(f.structIndex)).size;
        if (f.fixedCount == 1) {
          WriteStruct(static_cast<std::uint32_t>(f.structIndex), p, v, at);
          return;
        }
        if (!v.IsArray() || v.As<Napi::Array>().Length() > f.fixedCount) throw Error(at, "must be an array of at most " + std::to_string(f.fixedCount));
        for (std::uint32_t k = 0; k < v.As<Napi::Array>().Length(); ++k) {
          WriteStruct(static_cast<std::uint32_t>(f.structIndex), p + k * size, v.As<Napi::Array>().Get(k), at + "[" + std::to_string(k) + "]");
        }
      } else if (f.scalar == Scalar::Char && f.fixedCount > 1) {
        WriteCharArray(reinterpret_cast<char*>(p), f.fixedCount, v, at);
      } else if (f.fixedCount > 1) {
        if (!v.IsArray() || v.As<Napi::Array>().Length() > f.fixedCount) throw Error(at, "must be an array of at most " + std::to_string(f.fixedCount));
        const std::size_t size = ScalarSize(f.scalar);
        for (std::uint32_t k = 0; k < v.As<Napi::Array>().Length(); ++k) {
          WriteFieldScalar(f, p + k * size, v.As<Napi::Array>().Get(k), at + "[" + std::to_string(k) + "]");
        }
      } else {
        WriteFieldScalar(f, p, v, at);
      }
      return;
    case Shape::String: {
      if (!v.IsString()) throw Error(at, "must be a string");
      const char* str = arena_.CopyString(v.As<Napi::String>().Utf8Value());
      std::memcpy(p, &str, sizeof str);
      return;
    }
    case Shape::StringArray: {
      if (!v.IsArray()) throw Error(at, "must be an array of strings");
      Napi::Array a = v.As<Napi::Array>();
      auto** list = static_cast<const char**>(arena_.Allocate(sizeof(char*) * a.Length()));
      for (std::uint32_t k = 0; k < a.Length(); ++k) {
        if (!a.Get(k).IsString()) throw Error(at + "[" + std::to_string(k) + "]", "must be a string");
        list[k] = arena_.CopyString(a.Get(k).As<Napi::String>().Utf8Value());
      }
      std::memcpy(p, &list, sizeof list);
      if (f.lenIndex >= 0) StoreCount(fields[f.lenIndex], dst, a.Length());
      return;
    }
    case Shape::Array: {
      std::uint32_t count = 0;
      void* data = nullptr;
      if (v.IsNumber() && f.countOutputIndex < 0) {
        // A caller-sized output array given as its length.
        count = v.As<Napi::Number>().Uint32Value();
        data = NewElements(f, count, env_.Undefined(), at);
      } else {
        data = WriteArray(f, v, &count, at);
      }
      std::memcpy(p, &data, sizeof data);
      if (f.lenIndex >= 0) {
        const Field& len = fields[f.lenIndex];
        const std::uint64_t prior = LoadCount(len, dst);
        const std::uint64_t expected = (f.flags & kLenBytes) != 0 ? count * ElementSize(f) : count;
        if (prior != 0 && prior != expected) throw Error(at, std::string("has ") + std::to_string(count) + " elements but another array sharing " + len.name + " has " + std::to_string(prior));
        StoreCount(len, dst, (f.flags & kLenBytes) != 0 ? count * ElementSize(f) : count);
      }
      return;
    }
    case Shape::PointerArray: {
      if (!v.IsArray()) throw Error(at, "must be an array of objects");
      Napi::Array a = v.As<Napi::Array>();
      auto** list = static_cast<std::byte**>(arena_.Allocate(sizeof(void*) * a.Length()));
      for (std::uint32_t k = 0; k < a.Length(); ++k) {
        list[k] = NewStruct(static_cast<std::uint32_t>(f.structIndex), a.Get(k), at + "[" + std::to_string(k) + "]");
      }
      std::memcpy(p, &list, sizeof list);
      if (f.lenIndex >= 0) StoreCount(fields[f.lenIndex], dst, a.Length());
      return;
    }
    case Shape::Pointer: {
      void* target = nullptr;
      if (f.structIndex >= 0) {
        target = NewStruct(static_cast<std::uint32_t>(f.structIndex), v, at);
      } else {
        target = arena_.Allocate(ScalarSize(f.scalar));
        WriteFieldScalar(f, target, v, at);
      }
      std::memcpy(p, &target, sizeof target);
      return;
    }
    case Shape::Unsupported:
      throw Error(at, "cannot be marshalled by the generated bindings; leave it out");
    default:
      return;
  }
}

Napi::Value StructMarshaller::ReadNext(const void* next) {
  Napi::Array out = Napi::Array::New(env_);
  for (std::uint32_t k = 0; next != nullptr && k < 64; ++k) {
    std::int32_t type = 0;
    std::memcpy(&type, next, sizeof type);
    const std::int32_t index = StructForType(type);
    if (index >= 0) {
      out.Set(k, ReadStruct(static_cast<std::uint32_t>(index), static_cast<const std::byte*>(next)));
    } else {
      Napi::Object unknown = Napi::Object::New(env_);
      unknown.Set(tables_.typeMember(), Napi::Number::New(env_, type));
      out.Set(k, unknown);
    }
    next = NextOf(next);
  }
  return out;
}

Napi::Value StructMarshaller::ReadArray(const Field& f, const void* data, std::uint32_t count, std::int32_t elementStruct) {
  if (data == nullptr) return f.scalar == Scalar::Char && f.structIndex < 0 ? Napi::String::New(env_, "") : Napi::Array::New(env_, 0).As<Napi::Value>();
  if (f.scalar == Scalar::Char && f.structIndex < 0) {
    const char* s = static_cast<const char*>(data);
    return Napi::String::New(env_, s, strnlen(s, count));
  }
  if (f.scalar == Scalar::Address && f.structIndex < 0) {
    return Napi::Buffer<std::uint8_t>::Copy(env_, static_cast<const std::uint8_t*>(data), count);
  }
  const std::int32_t element = elementStruct >= 0 ? elementStruct : f.structIndex;
  const std::size_t size = element >= 0 ? tables_.StructAt(static_cast<std::uint32_t>(element)).size : ElementSize(f);
  const auto* p = static_cast<const std::byte*>(data);
  Napi::Array a = Napi::Array::New(env_, count);
  for (std::uint32_t k = 0; k < count; ++k) {
    a.Set(k, element >= 0 ? ReadStruct(static_cast<std::uint32_t>(element), p + k * size) : ReadScalar(f.scalar, p + k * size));
  }
  return a;
}

Napi::Value StructMarshaller::ReadStruct(std::uint32_t index, const std::byte* src) {
  const Struct* s = &tables_.StructAt(index);
  const Field* fields = tables_.FieldsOf(*s);
  // The runtime may have written a more specific structure than the one declared (an event in
  // XrEventDataBuffer, a specialization behind a base header): read what its type says.
  if (s->fieldCount > 0 && fields[0].shape == Shape::StructureType) {
    std::int32_t type = 0;
    std::memcpy(&type, src, sizeof type);
    const std::int32_t actual = type == s->structureType ? static_cast<std::int32_t>(index) : StructForType(type);
    if (actual >= 0 && static_cast<std::uint32_t>(actual) != index) {
      s = &tables_.StructAt(static_cast<std::uint32_t>(actual));
      fields = tables_.FieldsOf(*s);
    }
  }
  Napi::Object o = Napi::Object::New(env_);
  for (std::uint16_t i = 0; i < s->fieldCount; ++i) {
    const Field& f = fields[i];
    const std::byte* p = src + f.offset;
    // Only pointer members are read as pointers: a 4-byte member at the end of a structure has no
    // 8 bytes behind it.
    const bool pointerMember = f.shape == Shape::Next || f.shape == Shape::String || f.shape == Shape::StringArray ||
                               f.shape == Shape::Array || f.shape == Shape::PointerArray || f.shape == Shape::Pointer;
    const void* ptr = nullptr;
    if (pointerMember) std::memcpy(&ptr, p, sizeof ptr);
    switch (f.shape) {
      case Shape::StructureType:
        o.Set(f.name, ReadScalar(Scalar::I32, p));
        break;
      case Shape::Next:
        if (ptr != nullptr) o.Set(f.name, ReadNext(ptr));
        break;
      case Shape::Value:
        if (f.structIndex >= 0 && f.fixedCount == 1) {
          o.Set(f.name, ReadStruct(static_cast<std::uint32_t>(f.structIndex), p));
        } else if (f.scalar == Scalar::Char && f.fixedCount > 1) {
          o.Set(f.name, Napi::String::New(env_, reinterpret_cast<const char*>(p), strnlen(reinterpret_cast<const char*>(p), f.fixedCount)));
        } else if (f.fixedCount > 1) {
          o.Set(f.name, ReadArray(f, p, f.fixedCount));
        } else {
          o.Set(f.name, ReadScalar(f.scalar, p));
        }
        break;
      case Shape::String:
        o.Set(f.name, ptr == nullptr ? env_.Null() : Napi::String::New(env_, static_cast<const char*>(ptr)));
        break;
      case Shape::StringArray: {
        const std::uint64_t n = f.lenIndex >= 0 ? LoadCount(fields[f.lenIndex], src) : 0;
        Napi::Array a = Napi::Array::New(env_, n);
        const auto* list = static_cast<const char* const*>(ptr);
        for (std::uint32_t k = 0; list != nullptr && k < n; ++k) a.Set(k, Napi::String::New(env_, list[k] != nullptr ? list[k] : ""));
        o.Set(f.name, a);
        break;
      }
      case Shape::Array: {
        std::uint64_t n = f.lenIndex >= 0 ? LoadCount(fields[f.lenIndex], src) : 0;
        if (f.countOutputIndex >= 0) n = std::min(n, LoadCount(fields[f.countOutputIndex], src));
        o.Set(f.name, ReadArray(f, ptr, static_cast<std::uint32_t>(n)));
        break;
      }
      case Shape::PointerArray: {
        const std::uint64_t n = f.lenIndex >= 0 ? LoadCount(fields[f.lenIndex], src) : 0;
        Napi::Array a = Napi::Array::New(env_, n);
        const auto* list = static_cast<const std::byte* const*>(ptr);
        for (std::uint32_t k = 0; list != nullptr && k < n; ++k) {
          a.Set(k, list[k] == nullptr ? env_.Null() : ReadStruct(static_cast<std::uint32_t>(f.structIndex), list[k]));
        }
        o.Set(f.name, a);
        break;
      }
      case Shape::Pointer:
        if (ptr == nullptr) {
          o.Set(f.name, env_.Null());
        } else {
          o.Set(f.name, f.structIndex >= 0 ? ReadStruct(static_cast<std::uint32_t>(f.structIndex), static_cast<const std::byte*>(ptr))
                                           : ReadScalar(f.scalar, ptr));
        }
        break;
      default:
        break;  // counts travel as array lengths; function pointers are not read back
    }
  }
  return o;
}

}  // namespace kl::marshal
