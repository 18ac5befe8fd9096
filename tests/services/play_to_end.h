// A seat played to the end over ExecutionService.Play, always with the first legal action: how
// the ladder tests play a person's side of a match.
#ifndef BONEYARD_TESTS_SERVICES_PLAY_TO_END_H_
#define BONEYARD_TESTS_SERVICES_PLAY_TO_END_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <string>

#include "boneyard/v1/execution.grpc.pb.h"
#include "gtest/gtest.h"

namespace boneyard::testing {

inline void PlaySeatToTheEnd(const std::string& target, const std::string& match,
                             const std::string& seat_token) {
  auto stub = v1::ExecutionService::NewStub(
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  context.AddMetadata("authorization", "Bearer " + seat_token);
  auto stream = stub->Play(&context);
  v1::PlayRequest hello;
  hello.set_name(match);
  ASSERT_TRUE(stream->Write(hello));
  v1::PlayResponse response;
  while (stream->Read(&response)) {
    if (!response.has_view()) continue;
    const v1::SeatView& view = response.view();
    if (view.terminal()) break;
    if (view.current_seat() != view.seat() || view.legal_actions().empty()) continue;
    v1::PlayRequest play;
    *play.mutable_action() = view.legal_actions(0);
    play.set_seen_sequence(view.sequence());
    ASSERT_TRUE(stream->Write(play));
  }
  context.TryCancel();
}

}  // namespace boneyard::testing

#endif  // BONEYARD_TESTS_SERVICES_PLAY_TO_END_H_
