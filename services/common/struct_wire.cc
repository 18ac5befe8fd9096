#include "services/common/struct_wire.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/unknown_field_set.h"

namespace boneyard {
namespace {

using nlohmann::json;

// Field numbers and wire types of struct.proto.
enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2 };
constexpr uint32_t Tag(uint32_t field, WireType type) { return field << 3 | type; }
constexpr uint32_t kStructFields = Tag(1, kLengthDelimited);  // Struct.fields (map entries)
constexpr uint32_t kEntryKey = Tag(1, kLengthDelimited);
constexpr uint32_t kEntryValue = Tag(2, kLengthDelimited);
constexpr uint32_t kNullValue = Tag(1, kVarint);
constexpr uint32_t kNumberValue = Tag(2, kFixed64);
constexpr uint32_t kStringValue = Tag(3, kLengthDelimited);
constexpr uint32_t kBoolValue = Tag(4, kVarint);
constexpr uint32_t kStructValue = Tag(5, kLengthDelimited);
constexpr uint32_t kListValue = Tag(6, kLengthDelimited);
constexpr uint32_t kListValues = Tag(1, kLengthDelimited);  // ListValue.values

size_t VarintSize(uint64_t value) {
  size_t size = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++size;
  }
  return size;
}

size_t DelimitedSize(size_t content) { return 1 + VarintSize(content) + content; }

// Two passes over the tree: Measure* computes every length-delimited message's size, in the
// order Write* then needs them (a message's size before its children's), so each is computed
// once; Write* emits the bytes.
class StructWriter {
 public:
  std::string Run(const json& object) {
    const size_t total = object.is_object() ? MeasureStruct(object) : 0;
    std::string out;
    out.reserve(total);
    out_ = &out;
    if (object.is_object()) WriteStruct(object);
    return out;
  }

 private:
  // Reserves a slot for a message's size, to be filled once its children are measured.
  size_t Open() {
    sizes_.push_back(0);
    return sizes_.size() - 1;
  }

  size_t MeasureStruct(const json& object) {
    size_t size = 0;
    for (const auto& [key, value] : object.items()) {
      const size_t entry = Open();
      const size_t content = DelimitedSize(key.size()) + DelimitedSize(MeasureValue(value));
      sizes_[entry] = content;
      size += DelimitedSize(content);
    }
    return size;
  }

  size_t MeasureList(const json& array) {
    size_t size = 0;
    for (const json& element : array) size += DelimitedSize(MeasureValue(element));
    return size;
  }

  // The size of a Value message; reserves its own slot first.
  size_t MeasureValue(const json& value) {
    const size_t slot = Open();
    size_t size = 0;
    switch (value.type()) {
      case json::value_t::null:
      case json::value_t::discarded:
      case json::value_t::boolean:
        size = 2;  // tag, one-byte varint
        break;
      case json::value_t::number_integer:
      case json::value_t::number_unsigned:
      case json::value_t::number_float:
        size = 1 + 8;
        break;
      case json::value_t::string:
        size = DelimitedSize(value.get_ref<const std::string&>().size());
        break;
      case json::value_t::array: {
        const size_t list = Open();
        sizes_[list] = MeasureList(value);
        size = DelimitedSize(sizes_[list]);
        break;
      }
      case json::value_t::object: {
        const size_t inner = Open();
        sizes_[inner] = MeasureStruct(value);
        size = DelimitedSize(sizes_[inner]);
        break;
      }
      case json::value_t::binary: {
        // As JsonToStruct: the bytes as a list of numbers.
        const size_t list = Open();
        sizes_[list] = value.get_binary().size() * DelimitedSize(1 + 8);
        size = DelimitedSize(sizes_[list]);
        break;
      }
    }
    sizes_[slot] = size;
    return size;
  }

  size_t Next() { return sizes_[cursor_++]; }

  void Varint(uint64_t value) {
    while (value >= 0x80) {
      out_->push_back(static_cast<char>(value | 0x80));
      value >>= 7;
    }
    out_->push_back(static_cast<char>(value));
  }

  void Bytes(uint32_t tag, const std::string& bytes) {
    Varint(tag);
    Varint(bytes.size());
    out_->append(bytes);
  }

  void Number(double number) {
    Varint(kNumberValue);
    char little_endian[8];
    std::memcpy(little_endian, &number, 8);  // x86-64 and arm64 are little-endian, as the wire
    out_->append(little_endian, 8);
  }

  void WriteStruct(const json& object) {
    for (const auto& [key, value] : object.items()) {
      Varint(kStructFields);
      Varint(Next());
      Bytes(kEntryKey, key);
      Varint(kEntryValue);
      WriteValue(value);
    }
  }

  // Writes a Value's length and content (its tag is the caller's).
  void WriteValue(const json& value) {
    Varint(Next());
    switch (value.type()) {
      case json::value_t::null:
      case json::value_t::discarded:
        Varint(kNullValue);
        Varint(0);
        break;
      case json::value_t::boolean:
        Varint(kBoolValue);
        Varint(value.get<bool>() ? 1 : 0);
        break;
      case json::value_t::number_integer:
        Number(static_cast<double>(value.get<int64_t>()));
        break;
      case json::value_t::number_unsigned:
        Number(static_cast<double>(value.get<uint64_t>()));
        break;
      case json::value_t::number_float:
        Number(value.get<double>());
        break;
      case json::value_t::string:
        Bytes(kStringValue, value.get_ref<const std::string&>());
        break;
      case json::value_t::array:
        Varint(kListValue);
        Varint(Next());
        for (const json& element : value) {
          Varint(kListValues);
          WriteValue(element);
        }
        break;
      case json::value_t::object:
        Varint(kStructValue);
        Varint(Next());
        WriteStruct(value);
        break;
      case json::value_t::binary:
        Varint(kListValue);
        Varint(Next());
        for (uint8_t byte : value.get_binary()) {
          Varint(kListValues);
          Varint(1 + 8);
          Number(byte);
        }
        break;
    }
  }

  std::vector<size_t> sizes_;
  size_t cursor_ = 0;
  std::string* out_ = nullptr;
};

}  // namespace

std::string JsonToStructWire(const json& object) { return StructWriter().Run(object); }

void SetFieldWire(google::protobuf::Message& message, int field_number, std::string bytes) {
  const google::protobuf::Reflection& reflection = *message.GetReflection();
  const google::protobuf::FieldDescriptor* field =
      message.GetDescriptor()->FindFieldByNumber(field_number);
  if (field != nullptr) reflection.ClearField(&message, field);
  google::protobuf::UnknownFieldSet& unknown = *reflection.MutableUnknownFields(&message);
  unknown.DeleteByNumber(field_number);  // set again: replace, as for a typed field
  *unknown.AddLengthDelimited(field_number) = std::move(bytes);
}

}  // namespace boneyard
