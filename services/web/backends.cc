#include "services/web/backends.h"

#include "absl/strings/str_cat.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "services/client/channel.h"

namespace boneyard::web {
namespace {

constexpr absl::Duration kHealthDeadline = absl::Seconds(2);

absl::Status NotConfigured(absl::string_view service) {
  return absl::UnavailableError(absl::StrCat("the web service has no ", service, " service"));
}

// One unary call: a context with the credential, the call, its status as
// absl::Status.
template <typename Response, typename Call>
absl::StatusOr<Response> Unary(const std::string& token, Call call) {
  std::shared_ptr<grpc::ClientContext> context = Backends::Context(token);
  Response response;
  const grpc::Status status = call(context.get(), &response);
  if (!status.ok()) return client::FromGrpc(status);
  return response;
}

}  // namespace

template <typename Response, typename Invoke>
absl::StatusOr<Response> Backends::Following(const std::string& token, const std::string& match,
                                             Invoke call) {
  Response response;
  const grpc::Status status = execution_.Call(
      match, [&](grpc::ClientContext& context) { client::PrepareUnaryContext(context, token); },
      [&](v1::ExecutionService::Stub& stub, grpc::ClientContext* context) {
        return call(stub, context, &response);
      });
  if (!status.ok()) return client::FromGrpc(status);
  return response;
}

Backends::Backends(const BackendTargets& targets)
    : targets_(targets), execution_(targets.execution) {
  execution_channel_ = client::MakeChannel(targets.execution);
  if (!targets.matchmaking.empty()) {
    matchmaking_channel_ = client::MakeChannel(targets.matchmaking);
    matchmaking_ = v1::MatchmakingService::NewStub(matchmaking_channel_);
    tournaments_ = v1::TournamentService::NewStub(matchmaking_channel_);
    ladders_ = v1::LadderService::NewStub(matchmaking_channel_);
  }
  if (!targets.ratings.empty()) {
    ratings_channel_ = client::MakeChannel(targets.ratings);
    ratings_ = v1::RatingsService::NewStub(ratings_channel_);
  }
}

std::shared_ptr<grpc::ClientContext> Backends::Context(const std::string& token, bool unary) {
  auto context = std::make_shared<grpc::ClientContext>();
  if (unary) {
    client::PrepareUnaryContext(*context, token);  // the bearer token and the usual deadline
  } else {
    AddBearerToken(*context, token);
  }
  return context;
}

absl::StatusOr<v1::ListMatchesResponse> Backends::ListMatches(
    const v1::ListMatchesRequest& request) {
  return Unary<v1::ListMatchesResponse>("", [&](grpc::ClientContext* c, auto* r) {
    return execution_.Home().ListMatches(c, request, r);
  });
}

absl::StatusOr<v1::Match> Backends::GetMatch(const std::string& name) {
  v1::GetMatchRequest request;
  request.set_name(name);
  return Unary<v1::Match>("", [&](grpc::ClientContext* c, auto* r) {
    return execution_.Home().GetMatch(c, request, r);
  });
}

absl::StatusOr<v1::Match> Backends::AbortMatch(const std::string& token, const std::string& name,
                                               const std::string& reason) {
  v1::AbortMatchRequest request;
  request.set_name(name);
  request.set_reason(reason);
  return Following<v1::Match>(
      token, name, [&](v1::ExecutionService::Stub& stub, grpc::ClientContext* c, v1::Match* r) {
        return stub.AbortMatch(c, request, r);
      });
}

absl::StatusOr<v1::Record> Backends::GetRecord(const std::string& name) {
  v1::GetRecordRequest request;
  request.set_name(name);
  return Unary<v1::Record>("", [&](grpc::ClientContext* c, auto* r) {
    return execution_.Home().GetRecord(c, request, r);
  });
}

absl::StatusOr<v1::SeatView> Backends::SubmitAction(const std::string& seat_token,
                                                    const v1::SubmitActionRequest& request) {
  return Following<v1::SeatView>(seat_token, request.name(),
                                 [&](v1::ExecutionService::Stub& stub, grpc::ClientContext* c,
                                     v1::SeatView* r) { return stub.SubmitAction(c, request, r); });
}

absl::StatusOr<v1::PlayerAccount> Backends::GetPlayer(const std::string& token,
                                                      const std::string& name) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::GetPlayerRequest request;
  request.set_name(name);
  return Unary<v1::PlayerAccount>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->GetPlayer(c, request, r);
  });
}

absl::StatusOr<v1::CreatePlayerResponse> Backends::CreatePlayer(
    const v1::CreatePlayerRequest& request) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  return Unary<v1::CreatePlayerResponse>("", [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->CreatePlayer(c, request, r);
  });
}

absl::StatusOr<v1::ListQueuesResponse> Backends::ListQueues() {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::ListQueuesRequest request;
  request.set_page_size(1000);
  return Unary<v1::ListQueuesResponse>(
      "", [&](grpc::ClientContext* c, auto* r) { return matchmaking_->ListQueues(c, request, r); });
}

absl::StatusOr<v1::Queue> Backends::CreateQueue(const std::string& token,
                                                const v1::CreateQueueRequest& request) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  return Unary<v1::Queue>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->CreateQueue(c, request, r);
  });
}

absl::StatusOr<v1::Queue> Backends::UpdateQueue(const std::string& token,
                                                const v1::UpdateQueueRequest& request) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  return Unary<v1::Queue>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->UpdateQueue(c, request, r);
  });
}

absl::StatusOr<v1::Party> Backends::CreateParty(const std::string& token) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::CreatePartyRequest request;
  return Unary<v1::Party>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->CreateParty(c, request, r);
  });
}

absl::StatusOr<v1::Party> Backends::JoinParty(const std::string& token,
                                              const std::string& invite_code) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::JoinPartyRequest request;
  request.set_invite_code(invite_code);
  return Unary<v1::Party>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->JoinParty(c, request, r);
  });
}

absl::StatusOr<v1::Party> Backends::LeaveParty(const std::string& token, const std::string& name) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::LeavePartyRequest request;
  request.set_name(name);
  return Unary<v1::Party>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->LeaveParty(c, request, r);
  });
}

absl::StatusOr<v1::Party> Backends::GetParty(const std::string& token, const std::string& name) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::GetPartyRequest request;
  request.set_name(name);
  return Unary<v1::Party>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->GetParty(c, request, r);
  });
}

absl::StatusOr<v1::Ticket> Backends::CreateTicket(const std::string& token,
                                                  const v1::CreateTicketRequest& request) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  return Unary<v1::Ticket>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->CreateTicket(c, request, r);
  });
}

absl::StatusOr<v1::Ticket> Backends::GetTicket(const std::string& token, const std::string& name) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::GetTicketRequest request;
  request.set_name(name);
  return Unary<v1::Ticket>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->GetTicket(c, request, r);
  });
}

absl::StatusOr<v1::Ticket> Backends::CancelTicket(const std::string& token,
                                                  const std::string& name) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  v1::CancelTicketRequest request;
  request.set_name(name);
  return Unary<v1::Ticket>(token, [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->CancelTicket(c, request, r);
  });
}

absl::StatusOr<v1::ListLeaderboardResponse> Backends::ListLeaderboard(
    const v1::ListLeaderboardRequest& request) {
  if (!ratings_) return NotConfigured("ratings");
  return Unary<v1::ListLeaderboardResponse>("", [&](grpc::ClientContext* c, auto* r) {
    return ratings_->ListLeaderboard(c, request, r);
  });
}

absl::StatusOr<v1::ListPlayerMatchesResponse> Backends::ListPlayerMatches(
    const v1::ListPlayerMatchesRequest& request) {
  if (!matchmaking_) return NotConfigured("matchmaking");
  return Unary<v1::ListPlayerMatchesResponse>("", [&](grpc::ClientContext* c, auto* r) {
    return matchmaking_->ListPlayerMatches(c, request, r);
  });
}

absl::StatusOr<v1::ListRatingHistoryResponse> Backends::ListRatingHistory(
    const v1::ListRatingHistoryRequest& request) {
  if (!ratings_) return NotConfigured("ratings");
  return Unary<v1::ListRatingHistoryResponse>("", [&](grpc::ClientContext* c, auto* r) {
    return ratings_->ListRatingHistory(c, request, r);
  });
}

bool Backends::Serving(const std::string& service) {
  std::shared_ptr<grpc::Channel> channel = service == "execution"     ? execution_channel_
                                           : service == "matchmaking" ? matchmaking_channel_
                                           : service == "ratings"     ? ratings_channel_
                                                                      : nullptr;
  if (channel == nullptr) return false;
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + kHealthDeadline));
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  return status.ok() && response.status() == grpc::health::v1::HealthCheckResponse::SERVING;
}

}  // namespace boneyard::web
