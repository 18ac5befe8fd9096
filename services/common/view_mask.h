// Which fields of a view message a stream wants: a google.protobuf.FieldMask of top-level
// field names (AIP-157 partial responses), checked against the view's descriptor.
//
//   absl::StatusOr<ViewMask> mask =
//       ViewMask::Parse(request.view_mask(), *v1::SeatView::descriptor(), "view_mask");
//   if (mask->Includes(v1::SeatView::kLayoutFieldNumber)) ...   // build the costly part
//   mask->Trim(view);                                           // drop the rest
#ifndef BONEYARD_SERVICES_COMMON_VIEW_MASK_H_
#define BONEYARD_SERVICES_COMMON_VIEW_MASK_H_

#include <algorithm>
#include <cstdint>
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

  // A mask names at least one field (field numbers start at 1), so no bit and no list is all.
  bool all() const { return low_ == 0 && high_.empty(); }
  bool Includes(int field_number) const {
    if (all()) return true;
    if (field_number >= 0 && field_number < kBits) return (low_ >> field_number) & 1;
    return std::binary_search(high_.begin(), high_.end(), field_number);
  }
  // Clears every field outside the mask (nothing for all()).
  void Trim(google::protobuf::Message& view) const;

  bool operator==(const ViewMask& other) const = default;

 private:
  // A view is built, and its mask looked at and copied, for every stream after every event:
  // the usual field numbers are bits, so that costs no allocation and no search.
  static constexpr int kBits = 64;

  uint64_t low_ = 0;        // bit n: field n, for n < kBits
  std::vector<int> high_;  // sorted field numbers from kBits up (none in today's views)
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_VIEW_MASK_H_
