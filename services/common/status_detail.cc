#include "services/common/status_detail.h"

#include "absl/strings/match.h"
#include "boneyard/v1/execution.pb.h"

namespace boneyard {
namespace {

// Only the schema's own messages cross the edge: other payloads are a process's business.
constexpr absl::string_view kSchemaPrefix = "type.googleapis.com/boneyard.v1.";

}  // namespace

std::string EncodeStatusDetails(const absl::Status& status) {
  v1::RpcStatus rpc;
  status.ForEachPayload([&rpc](absl::string_view type_url, const absl::Cord& payload) {
    if (!absl::StartsWith(type_url, kSchemaPrefix)) return;
    google::protobuf::Any& any = *rpc.add_details();
    any.set_type_url(std::string(type_url));
    any.set_value(std::string(payload));
  });
  if (rpc.details().empty()) return "";
  rpc.set_code(static_cast<int>(status.code()));
  rpc.set_message(std::string(status.message()));
  return rpc.SerializeAsString();
}

void DecodeStatusDetails(absl::string_view bytes, absl::Status& status) {
  v1::RpcStatus rpc;
  if (bytes.empty() || !rpc.ParseFromString(std::string(bytes))) return;
  for (const google::protobuf::Any& any : rpc.details()) {
    if (absl::StartsWith(any.type_url(), kSchemaPrefix)) {
      status.SetPayload(any.type_url(), absl::Cord(any.value()));
    }
  }
}

}  // namespace boneyard
