#include "services/common/view_mask.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace boneyard {

absl::StatusOr<ViewMask> ViewMask::Parse(const google::protobuf::FieldMask& mask,
                                         const google::protobuf::Descriptor& view,
                                         absl::string_view request_field) {
  ViewMask out;
  for (const std::string& path : mask.paths()) {
    const google::protobuf::FieldDescriptor* field = view.FindFieldByName(path);
    if (field == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(request_field, ": ", view.name(), " has no field \"", path,
                       "\" (paths are top-level field names, such as \"legal_actions\")"));
    }
    if (field->number() < kBits) {
      out.low_ |= uint64_t{1} << field->number();
    } else {
      out.high_.push_back(field->number());
    }
  }
  std::sort(out.high_.begin(), out.high_.end());
  out.high_.erase(std::unique(out.high_.begin(), out.high_.end()), out.high_.end());
  return out;
}

void ViewMask::Trim(google::protobuf::Message& view) const {
  if (all()) return;
  const google::protobuf::Descriptor& descriptor = *view.GetDescriptor();
  const google::protobuf::Reflection& reflection = *view.GetReflection();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const google::protobuf::FieldDescriptor* field = descriptor.field(i);
    if (!Includes(field->number())) reflection.ClearField(&view, field);
  }
}

}  // namespace boneyard
