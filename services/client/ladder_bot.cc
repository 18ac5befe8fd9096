#include "services/client/ladder_bot.h"

#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/ladder.grpc.pb.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/client/engine_seat.h"
#include "services/client/remote_player.h"

namespace boneyard::client {
namespace {

// One match being played, and the stub its player talks through.
struct Game {
  std::unique_ptr<v1::ExecutionService::Stub> stub;
  std::unique_ptr<RemotePlayer> player;
};

std::string MySeatToken(const v1::Challenge& challenge, const std::string& me) {
  for (const v1::ChallengeSeat& seat : challenge.seats()) {
    if (seat.player() == me) return seat.seat_token();
  }
  return "";
}

class LadderBot {
 public:
  LadderBot(std::shared_ptr<grpc::Channel> matchmaking, std::string token,
            const LadderBotOptions& options, std::ostream& log)
      : ladders_(v1::LadderService::NewStub(matchmaking)),
        players_(v1::MatchmakingService::NewStub(matchmaking)),
        token_(std::move(token)),
        options_(options),
        log_(log) {}

  absl::Status Run() {
    if (absl::Status s = Join(); !s.ok()) return s;
    int64_t after = 0;
    absl::Time broken_since = absl::InfiniteFuture();
    while (options_.matches == 0 || ended_ < options_.matches) {
      grpc::ClientContext context;
      context.AddMetadata("authorization", "Bearer " + token_);
      v1::WatchEventsRequest request;
      request.set_after_sequence(after);
      std::unique_ptr<grpc::ClientReader<v1::LadderEvent>> events =
          ladders_->WatchEvents(&context, request);
      v1::LadderEvent event;
      bool read_any = false;
      // Reads with a look at the matches between events: a finished match frees a place.
      while (events->Read(&event)) {
        read_any = true;
        broken_since = absl::InfiniteFuture();
        after = std::max(after, event.challenge().sequence());
        if (absl::Status s = Handle(event.challenge()); !s.ok()) return s;
        Reap();
        if (options_.matches > 0 && ended_ >= options_.matches) {
          context.TryCancel();
          break;
        }
      }
      const grpc::Status status = events->Finish();
      Reap();
      if (options_.matches > 0 && ended_ >= options_.matches) break;
      if (status.error_code() == grpc::StatusCode::UNAVAILABLE ||
          status.error_code() == grpc::StatusCode::CANCELLED || status.ok() || read_any) {
        const absl::Time now = absl::Now();
        if (broken_since == absl::InfiniteFuture()) broken_since = now;
        if (now - broken_since > options_.reconnect_for) {
          return absl::UnavailableError(absl::StrCat("WatchEvents: ", status.error_message()));
        }
        absl::SleepFor(absl::Milliseconds(200));
        continue;
      }
      return FromGrpc(status);
    }
    log_ << "done: " << ended_ << " matches ended\n";
    return absl::OkStatus();
  }

 private:
  absl::Status Join() {
    v1::GetPlayerRequest me;
    me.set_name("players/me");
    v1::PlayerAccount account;
    grpc::Status status = players_->GetPlayer(CallContext(token_).get(), me, &account);
    if (!status.ok()) return FromGrpc(status);
    me_ = account.name();
    v1::JoinLadderRequest join;
    join.set_ladder(options_.ladder);
    v1::BotAcceptRules& rules = *join.mutable_accept();
    rules.set_accept_casual(true);
    rules.set_accept_rated(options_.accept_rated);
    rules.set_max_concurrent(options_.max_concurrent);
    rules.set_answer_myself(true);
    v1::LadderMember member;
    status = ladders_->JoinLadder(CallContext(token_).get(), join, &member);
    if (!status.ok()) return FromGrpc(status);
    log_ << me_ << " joined " << options_.ladder << "\n";
    return absl::OkStatus();
  }

  absl::Status Handle(const v1::Challenge& challenge) {
    if (challenge.state() == v1::Challenge::OFFERED && challenge.opponent() == me_) {
      v1::Challenge answered;
      grpc::Status status;
      if (static_cast<int>(games_.size()) < options_.max_concurrent) {
        v1::AcceptChallengeRequest accept;
        accept.set_name(challenge.name());
        status = ladders_->AcceptChallenge(CallContext(token_).get(), accept, &answered);
        log_ << "accepted " << challenge.name() << " from " << challenge.challenger() << "\n";
      } else {
        v1::DeclineChallengeRequest decline;
        decline.set_name(challenge.name());
        decline.set_reason("busy");
        status = ladders_->DeclineChallenge(CallContext(token_).get(), decline, &answered);
        log_ << "declined " << challenge.name() << ": busy\n";
      }
      // FAILED_PRECONDITION: withdrawn meanwhile; the event stream tells the rest.
      if (!status.ok() && status.error_code() != grpc::StatusCode::FAILED_PRECONDITION) {
        log_ << "answering " << challenge.name() << ": " << status.error_message() << "\n";
      }
      if (status.ok()) return Play(answered);
      return absl::OkStatus();
    }
    if ((challenge.state() == v1::Challenge::FINISHED ||
         challenge.state() == v1::Challenge::CANCELLED) &&
        games_.contains(challenge.match())) {
      // Its result is delivered once the match is over, so the player is done or about to be;
      // waiting here lets Reap count it before the stream blocks for the next event.
      games_[challenge.match()].player->WaitFor(options_.reconnect_for);
      return absl::OkStatus();
    }
    return Play(challenge);
  }

  absl::Status Play(const v1::Challenge& challenge) {
    if (challenge.match().empty() || challenge.state() != v1::Challenge::ACCEPTED) {
      return absl::OkStatus();
    }
    if (started_.contains(challenge.match())) return absl::OkStatus();
    const std::string seat_token = MySeatToken(challenge, me_);
    if (seat_token.empty()) return absl::OkStatus();
    started_[challenge.match()] = true;
    Game& game = games_[challenge.match()];
    game.stub = v1::ExecutionService::NewStub(MakeChannel(challenge.execution_target()));
    RemotePlayerOptions options;
    options.view_mask = PlayingViewMask();
    options.reconnect = ReconnectPolicy{.give_up_after = options_.reconnect_for};
    options.follow_replica = PlaintextStubs();
    const uint64_t seed = options_.seed + started_.size();
    Chooser chooser = RandomChooser(seed);
    if (options_.kind != "random") {
      // Its notes come on the player's thread; Reap prints them on this one.
      absl::StatusOr<Chooser> engine = PlayWithEngineBot(
          *game.stub, challenge.match(), options_.kind, seed,
          [this](const std::string& line) {
            absl::MutexLock lock(&notes_mu_);
            notes_.push_back(line);
          },
          options);
      if (engine.ok()) {
        chooser = *std::move(engine);
      } else {
        log_ << challenge.match() << ": playing at random: " << engine.status().message() << "\n";
      }
    }
    game.player = std::make_unique<RemotePlayer>(*game.stub, challenge.match(), seat_token,
                                                 std::move(chooser), options);
    game.player->Start();
    log_ << "playing " << challenge.match() << " (" << challenge.name() << ")\n";
    return absl::OkStatus();
  }

  // Counts and forgets the matches whose player is done.
  void Reap() {
    {
      absl::MutexLock lock(&notes_mu_);
      for (const std::string& line : notes_) log_ << line;
      notes_.clear();
    }
    for (auto it = games_.begin(); it != games_.end();) {
      if (!it->second.player->done()) {
        ++it;
        continue;
      }
      const absl::Status status = it->second.player->Wait();
      const std::optional<v1::SeatView> view = it->second.player->last_view();
      log_ << it->first << " ended";
      if (!status.ok()) log_ << ": " << status.message();
      if (view.has_value() && view->has_result() && view->seat() < view->result().ranks_size()) {
        log_ << ": this bot ranks " << view->result().ranks(view->seat());
      }
      log_ << "\n";
      ++ended_;
      it = games_.erase(it);
    }
  }

  std::unique_ptr<v1::LadderService::Stub> ladders_;
  std::unique_ptr<v1::MatchmakingService::Stub> players_;
  const std::string token_;
  const LadderBotOptions options_;
  std::ostream& log_;
  std::string me_;  // "players/{id}"
  std::map<std::string, Game> games_;
  std::map<std::string, bool> started_;
  int ended_ = 0;
  absl::Mutex notes_mu_;
  std::vector<std::string> notes_ ABSL_GUARDED_BY(notes_mu_);
};

}  // namespace

absl::Status RunLadderBot(std::shared_ptr<grpc::Channel> matchmaking,
                          const std::string& player_token, const LadderBotOptions& options,
                          std::ostream& log) {
  return LadderBot(std::move(matchmaking), player_token, options, log).Run();
}

}  // namespace boneyard::client
