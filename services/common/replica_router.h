// Calls to the execution service that follow a match to the replica playing it
// (docs/scaling.md, "Where a match is played"). A replica that does not play a live match
// answers calls about it UNAVAILABLE with a WrongReplica detail naming the one that does; a
// ReplicaRouter keeps a stub per replica address, remembers where each match was last said to
// be (so the next call about it goes straight there) and calls again on the replica named.
//
//   ReplicaRouter router("execution:50051");       // the Service address, or one replica's
//   grpc::Status s = router.Call(
//       "matches/ab12", [&](grpc::ClientContext& c) { PrepareUnaryContext(c, token); },
//       [&](v1::ExecutionService::Stub& stub, grpc::ClientContext* c) {
//         return stub.SubmitAction(c, request, &view);
//       });
//
// Streams follow the same way: open on StubFor(match), and when the stream ends with a status
// Reroute accepts, open it again on StubFor(match).
//
// Only a WrongReplica answer is followed at once: that replica did nothing with the call. A call
// that fails UNAVAILABLE without one may or may not have been applied (the connection broke), so
// it is not repeated here; the router only forgets where the match was, so that the caller's
// next call goes to the home address and learns afresh.
#ifndef BONEYARD_SERVICES_COMMON_REPLICA_ROUTER_H_
#define BONEYARD_SERVICES_COMMON_REPLICA_ROUTER_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/synchronization/mutex.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/status.h"

namespace boneyard {

class ReplicaRouter {
 public:
  // How many WrongReplica answers one call follows: a match moves at most once between two
  // answers in practice; more means replicas disagree, and the caller's own retry is better.
  static constexpr int kMaxFollows = 3;
  // How many matches' places are remembered; past it the memory starts afresh (a forgotten
  // match costs one redirected call).
  static constexpr size_t kMaxRemembered = 1 << 16;

  using ChannelFactory = std::function<std::shared_ptr<grpc::Channel>(const std::string&)>;
  // A plaintext channel to the address, as every boneyard client makes.
  static std::shared_ptr<grpc::Channel> PlaintextChannel(const std::string& address);

  // `home`: where calls go when a match's replica is not known (host:port).
  explicit ReplicaRouter(std::string home, ChannelFactory channels = PlaintextChannel);

  v1::ExecutionService::Stub& Home() { return At(home_); }
  // The stub for the replica at `address`, made on first use and kept.
  v1::ExecutionService::Stub& At(const std::string& address);
  // Where `match` ("matches/ID") was last said to be played, else home.
  std::string AddressOf(const std::string& match);
  v1::ExecutionService::Stub& StubFor(const std::string& match) { return At(AddressOf(match)); }

  // After a call about `match` failed with `status`: true when it names the replica that plays
  // the match (now remembered), so the call is worth making again at once on StubFor(match).
  // An UNAVAILABLE answer without one forgets the match's place (the next call asks home).
  bool Reroute(const std::string& match, const grpc::Status& status);

  // `invoke(stub, context)` with a fresh context readied by `prepare`, on StubFor(match), again
  // where WrongReplica answers say (at most kMaxFollows times); the last call's status.
  grpc::Status Call(
      const std::string& match, absl::FunctionRef<void(grpc::ClientContext&)> prepare,
      absl::FunctionRef<grpc::Status(v1::ExecutionService::Stub&, grpc::ClientContext*)> invoke);

 private:
  const std::string home_;
  const ChannelFactory channels_;
  absl::Mutex mu_;
  // Stubs are never dropped: references handed out stay valid for the router's life.
  absl::flat_hash_map<std::string, std::unique_ptr<v1::ExecutionService::Stub>> stubs_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> places_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_REPLICA_ROUTER_H_
