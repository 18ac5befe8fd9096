#include "services/common/replica_router.h"

#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "services/common/status_detail.h"

namespace boneyard {

std::shared_ptr<grpc::Channel> ReplicaRouter::PlaintextChannel(const std::string& address) {
  return grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
}

ReplicaRouter::ReplicaRouter(std::string home, ChannelFactory channels)
    : home_(std::move(home)), channels_(std::move(channels)) {}

v1::ExecutionService::Stub& ReplicaRouter::At(const std::string& address) {
  absl::MutexLock lock(&mu_);
  std::unique_ptr<v1::ExecutionService::Stub>& stub = stubs_[address];
  if (stub == nullptr) stub = v1::ExecutionService::NewStub(channels_(address));
  return *stub;
}

std::string ReplicaRouter::AddressOf(const std::string& match) {
  absl::MutexLock lock(&mu_);
  auto it = places_.find(match);
  return it == places_.end() ? home_ : it->second;
}

bool ReplicaRouter::Reroute(const std::string& match, const grpc::Status& status) {
  if (status.error_code() != grpc::StatusCode::UNAVAILABLE) return false;
  absl::Status details = absl::UnavailableError("");  // a carrier for the decoded payloads
  DecodeStatusDetails(status.error_details(), details);
  std::optional<v1::WrongReplica> where = GetStatusDetail<v1::WrongReplica>(details);
  absl::MutexLock lock(&mu_);
  if (!where.has_value() || where->address().empty()) {
    places_.erase(match);
    return false;
  }
  if (places_.size() >= kMaxRemembered) places_.clear();
  places_[match] = where->address();
  return true;
}

grpc::Status ReplicaRouter::Call(
    const std::string& match, absl::FunctionRef<void(grpc::ClientContext&)> prepare,
    absl::FunctionRef<grpc::Status(v1::ExecutionService::Stub&, grpc::ClientContext*)> invoke) {
  grpc::Status status;
  for (int follows = 0;; ++follows) {
    grpc::ClientContext context;
    prepare(context);
    status = invoke(StubFor(match), &context);
    if (status.ok() || follows == kMaxFollows || !Reroute(match, status)) return status;
  }
}

}  // namespace boneyard
