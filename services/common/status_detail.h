// Error details across the gRPC edge. A status may carry messages of the schema as details
// (proto/boneyard/v1/execution.proto: WrongReplica); inside a process they are absl::Status
// payloads under the message's type URL, on the wire gRPC's rich error model — the
// `grpc-status-details-bin` trailer holding a google.rpc.Status (boneyard.v1.RpcStatus) — so
// clients in any language read them with their gRPC library.
//
//   absl::Status s = absl::UnavailableError("matches/ab12 is played by the replica at ...");
//   SetStatusDetail(s, wrong_replica);                       // the service
//   std::optional<v1::WrongReplica> w = GetStatusDetail<v1::WrongReplica>(s);   // a client
#ifndef BONEYARD_SERVICES_COMMON_STATUS_DETAIL_H_
#define BONEYARD_SERVICES_COMMON_STATUS_DETAIL_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace boneyard {

// "type.googleapis.com/<full name>", as google.protobuf.Any names a message.
inline std::string DetailTypeUrl(absl::string_view full_name) {
  return absl::StrCat("type.googleapis.com/", full_name);
}

template <class Message>
void SetStatusDetail(absl::Status& status, const Message& detail) {
  status.SetPayload(DetailTypeUrl(Message::descriptor()->full_name()),
                    absl::Cord(detail.SerializeAsString()));
}

template <class Message>
std::optional<Message> GetStatusDetail(const absl::Status& status) {
  auto payload =  // absl::optional in this Abseil
      status.GetPayload(DetailTypeUrl(Message::descriptor()->full_name()));
  Message detail;
  if (!payload.has_value() || !detail.ParseFromString(std::string(*payload))) return std::nullopt;
  return detail;
}

// The details of `status` (its boneyard.v1 payloads) as the bytes of gRPC's error details: a
// serialized RpcStatus; empty when it has none.
std::string EncodeStatusDetails(const absl::Status& status);
// Adds the details in `bytes` (gRPC's error details) to `status` as payloads; bytes that do not
// parse are ignored.
void DecodeStatusDetails(absl::string_view bytes, absl::Status& status);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_STATUS_DETAIL_H_
