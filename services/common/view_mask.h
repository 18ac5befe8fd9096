// Which fields of a view message a stream wants: a google.protobuf.FieldMask of top-level
// field names (AIP-157 partial responses), checked against the view's descriptor.
//
//   absl::StatusOr<ViewMask> mask =
//       ViewMask::Parse(request.view_mask(), *v1::SeatView::descriptor(), "view_mask");
//   if (mask->Includes(v1::SeatView::kLayoutFieldNumber)) ...   // build the costly part
//   mask->Trim(view);                                           // drop the rest
#ifndef BONEYARD_SERVICES_COMMON_VIEW_MASK_H_
#define BONEYARD_SERVICES_COMMON_VIEW_MASK_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/message.h"

namespace boneyard {

class ViewMask {
 public:
  // Every field.
  ViewMask() = default;

  // INVALID_ARGUMENT naming `request_field` and the path when a path is not a top-level field
  // of `view` (nested paths such as "last_event.seat" are not offered). An empty mask is
  // every field.
  static absl::StatusOr<ViewMask> Parse(const google::protobuf::FieldMask& mask,
                                        const google::protobuf::Descriptor& view,
                                        absl::string_view request_field);

  bool all() const { return fields_.empty(); }
  bool Includes(int field_number) const;
  // Clears every field outside the mask (nothing for all()).
  void Trim(google::protobuf::Message& view) const;

  bool operator==(const ViewMask& other) const = default;

 private:
  std::vector<int> fields_;  // sorted field numbers; empty: all
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_VIEW_MASK_H_
