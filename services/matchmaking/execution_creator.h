// The matchmaker's MatchCreator over gRPC: ExecutionService.CreateMatch on the execution
// service, with the token execution accepts for it (its operator token).
#ifndef BONEYARD_SERVICES_MATCHMAKING_EXECUTION_CREATOR_H_
#define BONEYARD_SERVICES_MATCHMAKING_EXECUTION_CREATOR_H_

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "services/matchmaking/matchmaker.h"

namespace boneyard::matchmaking {

class ExecutionCreator : public MatchCreator {
 public:
  // `target` is execution's host:port; every call waits at most `deadline`.
  ExecutionCreator(std::string target, std::string token,
                   absl::Duration deadline = absl::Seconds(10));

  absl::StatusOr<CreatedMatch> CreateMatch(const v1::CreateMatchRequest& request) override;
  std::string target() const override { return target_; }

 private:
  const std::string target_;
  const std::string token_;
  const absl::Duration deadline_;
  std::unique_ptr<v1::ExecutionService::Stub> stub_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_EXECUTION_CREATOR_H_
