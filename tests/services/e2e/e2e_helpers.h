// Shared by the end-to-end tests of the execution service (tests/services/e2e/*_test.cc): the
// real boneyard-execution binary as a child process on a fresh PostgreSQL database, driven over
// real gRPC by RemotePlayers and plain unary calls.
//
//   class MyTest : public e2e::ServiceTest {};
//   TEST_F(MyTest, X) {
//     absl::StatusOr<v1::CreateMatchResponse> created =
//         e2e::CreateMatch(stub(), operator_token(), e2e::MatchRequest("muggins", {...}, 2));
//     e2e::MatchRun run{*created};
//     e2e::StartPlayers(run, stubs(), ...);
//     ...
//     absl::StatusOr<v1::Record> record = e2e::GetRecord(stub(), run.name());
//     absl::StatusOr<std::unique_ptr<State>> state = e2e::ReplayProto(*record);
//   }
//
// Everything here is header-only: tests/CMakeLists.txt compiles only the *_test.cc files of this
// folder. Every call carries a deadline, and every wait has an upper bound (a guard against a
// hang, never an assertion about timing).
#ifndef BONEYARD_TESTS_SERVICES_E2E_E2E_HELPERS_H_
#define BONEYARD_TESTS_SERVICES_E2E_E2E_HELPERS_H_

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/tile.h"
#include "engine/core/tile_mask.h"
#include "engine/core/view.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/client_callback.h"
#include "gtest/gtest.h"
#include "services/client/channel.h"
#include "services/common/engine_proto.h"
#include "services/client/remote_player.h"
#include "tests/services/service_process.h"

namespace boneyard::e2e {

using Stub = v1::ExecutionService::Stub;

// Every unary call's deadline, and the bound on a stream used as a single call.
inline constexpr absl::Duration kRpcDeadline = absl::Seconds(30);
// Channels (each its own TCP connection) the players of a test are spread over.
inline constexpr int kChannels = 4;

// ----- The service ----------------------------------------------------------------------------

// A fresh database and the service binary on it; stubs over kChannels channels. On a failure the
// tail of the service's log is printed.
class ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<testing::ServiceOnNewDatabase> started =
        testing::StartOnNewDatabase(BONEYARD_EXECUTION_BINARY);
    ASSERT_TRUE(started.ok()) << started.status();
    database_ = std::move(started->database);
    service_ = std::move(started->service);
    channels_ = client::MakeChannels(service_->target(), kChannels);
    for (const std::shared_ptr<grpc::Channel>& channel : channels_) {
      stubs_.push_back(v1::ExecutionService::NewStub(channel));
    }
  }

  void TearDown() override {
    if (HasFailure() && service_ != nullptr) {
      constexpr size_t kTail = 12000;
      std::string log = service_->log();
      if (log.size() > kTail) log = "...\n" + log.substr(log.size() - kTail);
      std::cerr << "---- service log (tail) ----\n" << log << "---- end of service log\n";
    }
  }

  Stub& stub(int i = 0) { return *stubs_[static_cast<size_t>(i) % stubs_.size()]; }
  std::vector<Stub*> stubs() {
    std::vector<Stub*> out;
    for (auto& s : stubs_) out.push_back(s.get());
    return out;
  }
  const std::string& operator_token() const { return service_->operator_token(); }

  std::unique_ptr<testing::TestDatabase> database_;
  std::unique_ptr<testing::ServiceProcess> service_;
  std::vector<std::shared_ptr<grpc::Channel>> channels_;
  std::vector<std::unique_ptr<Stub>> stubs_;
};

// ----- Requests -------------------------------------------------------------------------------

inline v1::RuleValue IntRule(int64_t v) {
  v1::RuleValue r;
  r.set_int_value(v);
  return r;
}
inline v1::RuleValue BoolRule(bool v) {
  v1::RuleValue r;
  r.set_bool_value(v);
  return r;
}
inline v1::RuleValue StringRule(std::string v) {
  v1::RuleValue r;
  r.set_string_value(std::move(v));
  return r;
}

using RuleMap = std::map<std::string, v1::RuleValue>;

// One seat of a request: a player (by id) or a built-in bot (by kind).
struct SeatSpec {
  static SeatSpec Player(std::string id) { return SeatSpec{std::move(id), ""}; }
  static SeatSpec Bot(std::string kind) { return SeatSpec{"", std::move(kind)}; }
  std::string player_id;
  std::string bot_kind;
};

inline v1::CreateMatchRequest MatchRequest(const std::string& game, const RuleMap& rules,
                                           const std::vector<SeatSpec>& seats) {
  v1::CreateMatchRequest request;
  request.set_game(game);
  for (const auto& [name, value] : rules) (*request.mutable_rules())[name] = value;
  for (const SeatSpec& seat : seats) {
    if (!seat.bot_kind.empty()) {
      request.add_seats()->mutable_bot()->set_kind(seat.bot_kind);
    } else {
      request.add_seats()->mutable_player()->set_player_id(seat.player_id);
    }
  }
  return request;
}

// `seats` player seats "p0", "p1", ...
inline v1::CreateMatchRequest MatchRequest(const std::string& game, const RuleMap& rules,
                                           int seats) {
  std::vector<SeatSpec> specs;
  for (int s = 0; s < seats; ++s) specs.push_back(SeatSpec::Player(absl::StrCat("p", s)));
  return MatchRequest(game, rules, specs);
}

// The ways the tests set up a game: rules and seat count. Muggins is played to 100 (quick), as
// two players or as four in two teams; the long games are shortened the same way (one round of
// the train games, the trick games to a low target), since hundreds of them are played at once
// by random players; any other registered game with its defaults.
struct Variant {
  std::string label;
  RuleMap rules;
  int seats = 0;
};

inline std::vector<Variant> VariantsFor(const std::string& game) {
  if (game == "muggins") {
    return {
        Variant{"muggins 2p to 100", {{"target", IntRule(100)}}, 2},
        Variant{"muggins 4p teams to 100",
                {{"target", IntRule(100)}, {"players", IntRule(4)}, {"teams", BoolRule(true)}},
                4},
    };
  }
  RuleMap quick;
  std::string label = absl::StrCat(game, " default");
  if (game == "mexican_train" || game == "chickenfoot") {
    quick = {{"rounds", IntRule(1)}};
    label = absl::StrCat(game, " one round");
  } else if (game == "forty_two" || game == "eighty_four") {
    quick = {{"target", IntRule(game == "forty_two" ? 42 : 84)}};
    label = absl::StrCat(game, " to one hand's points");
  } else if (game == "moon") {
    // Random players rarely reach even 7 (random bids lose more than they make), and the rules
    // have no other end: the tests bound the match themselves.
    quick = {{"target", IntRule(7)}, {"max_hands", IntRule(10)}};
    label = "moon to 7, at most 10 hands";
  }
  absl::StatusOr<std::shared_ptr<const Game>> made =
      DefaultRegistry().CreateGame(game, std::map<std::string, OptionValue>{});
  const int seats = made.ok() ? (*made)->num_seats() : 0;
  return {Variant{label, quick, seats}};
}

// ----- Unary calls ----------------------------------------------------------------------------

inline void Prepare(grpc::ClientContext& context, absl::string_view token) {
  client::PrepareUnaryContext(context, token, kRpcDeadline);
}

inline absl::StatusOr<v1::CreateMatchResponse> CreateMatch(Stub& stub, absl::string_view token,
                                                           const v1::CreateMatchRequest& request) {
  grpc::ClientContext context;
  Prepare(context, token);
  v1::CreateMatchResponse response;
  const grpc::Status status = stub.CreateMatch(&context, request, &response);
  if (!status.ok()) return client::FromGrpc(status);
  return response;
}

inline absl::StatusOr<v1::Match> GetMatch(Stub& stub, const std::string& name) {
  grpc::ClientContext context;
  Prepare(context, "");
  v1::GetMatchRequest request;
  request.set_name(name);
  v1::Match match;
  const grpc::Status status = stub.GetMatch(&context, request, &match);
  if (!status.ok()) return client::FromGrpc(status);
  return match;
}

// GetRecord by the record's own name ("matches/{id}/record").
inline absl::StatusOr<v1::Record> GetRecordNamed(Stub& stub, const std::string& record_name) {
  grpc::ClientContext context;
  Prepare(context, "");
  v1::GetRecordRequest request;
  request.set_name(record_name);
  v1::Record record;
  const grpc::Status status = stub.GetRecord(&context, request, &record);
  if (!status.ok()) return client::FromGrpc(status);
  return record;
}

// The record of match `match_name` ("matches/{id}").
inline absl::StatusOr<v1::Record> GetRecord(Stub& stub, const std::string& match_name) {
  return GetRecordNamed(stub, match_name + "/record");
}

inline absl::StatusOr<v1::Match> AbortMatch(Stub& stub, absl::string_view token,
                                            const std::string& name, const std::string& reason) {
  grpc::ClientContext context;
  Prepare(context, token);
  v1::AbortMatchRequest request;
  request.set_name(name);
  request.set_reason(reason);
  v1::Match match;
  const grpc::Status status = stub.AbortMatch(&context, request, &match);
  if (!status.ok()) return client::FromGrpc(status);
  return match;
}

inline absl::StatusOr<v1::SeatView> SubmitAction(Stub& stub, absl::string_view token,
                                                 const std::string& name, const std::string& text,
                                                 int64_t seen_sequence) {
  grpc::ClientContext context;
  Prepare(context, token);
  v1::SubmitActionRequest request;
  request.set_name(name);
  request.mutable_action()->set_text(text);
  request.set_seen_sequence(seen_sequence);
  v1::SeatView view;
  const grpc::Status status = stub.SubmitAction(&context, request, &view);
  if (!status.ok()) return client::FromGrpc(status);
  return view;
}

// Every match ListMatches gives for `state` and `game`, page by page; `page_sizes` (if given)
// gets the size of each page.
inline absl::StatusOr<std::vector<v1::Match>> ListAllMatches(
    Stub& stub, v1::Match::State state = v1::Match::STATE_UNSPECIFIED, const std::string& game = "",
    int page_size = 0, std::vector<int>* page_sizes = nullptr) {
  std::vector<v1::Match> out;
  std::string token;
  constexpr int kMaxPages = 100000;
  for (int page = 0; page < kMaxPages; ++page) {
    grpc::ClientContext context;
    Prepare(context, "");
    v1::ListMatchesRequest request;
    request.set_state(state);
    request.set_game(game);
    request.set_page_size(page_size);
    request.set_page_token(token);
    v1::ListMatchesResponse response;
    const grpc::Status status = stub.ListMatches(&context, request, &response);
    if (!status.ok()) return client::FromGrpc(status);
    if (page_sizes != nullptr) page_sizes->push_back(response.matches_size());
    for (const v1::Match& match : response.matches()) out.push_back(match);
    if (response.next_page_token().empty()) return out;
    token = response.next_page_token();
  }
  return absl::InternalError("ListMatches never gave a last page");
}

// ----- Single-purpose streams -----------------------------------------------------------------

// Opens a Play stream with `token`, sends `first` (a hello when it has no action), and reads
// until the server ends the stream or `max_responses` arrived (then the call is cancelled).
// Returns the responses and the stream's final status.
struct StreamResult {
  std::vector<v1::PlayResponse> responses;
  absl::Status status;
};

inline StreamResult PlayOnce(Stub& stub, absl::string_view token, const v1::PlayRequest& first,
                             size_t max_responses) {
  StreamResult result;
  grpc::ClientContext context;
  AddBearerToken(context, token);
  context.set_deadline(absl::ToChronoTime(absl::Now() + kRpcDeadline));
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>> stream =
      stub.Play(&context);
  stream->Write(first);
  v1::PlayResponse response;
  while (result.responses.size() < max_responses && stream->Read(&response)) {
    result.responses.push_back(response);
  }
  if (result.responses.size() >= max_responses) context.TryCancel();
  result.status = client::FromGrpc(stream->Finish());
  return result;
}

// The seat's current view, from a fresh hello.
inline absl::StatusOr<v1::SeatView> HelloView(Stub& stub, absl::string_view token,
                                              const std::string& name) {
  v1::PlayRequest hello;
  hello.set_name(name);
  StreamResult result = PlayOnce(stub, token, hello, 1);
  if (!result.responses.empty() && result.responses[0].has_view()) return result.responses[0].view();
  if (!result.status.ok()) return result.status;
  return absl::InternalError("the Play stream ended without a view");
}

// A Play stream driven one message at a time: Send, then Next for each response.
class PlayStream {
 public:
  PlayStream(Stub& stub, absl::string_view token) {
    AddBearerToken(context_, token);
    context_.set_deadline(absl::ToChronoTime(absl::Now() + kRpcDeadline));
    stream_ = stub.Play(&context_);
  }
  ~PlayStream() {
    context_.TryCancel();
    v1::PlayResponse ignored;
    while (stream_->Read(&ignored)) {
    }
    stream_->Finish().ok();
  }
  bool Send(const v1::PlayRequest& request) { return stream_->Write(request); }
  bool Hello(const std::string& name) {
    v1::PlayRequest hello;
    hello.set_name(name);
    return Send(hello);
  }
  bool Act(const std::string& name, const std::string& text, int64_t seen_sequence) {
    v1::PlayRequest request;
    request.set_name(name);
    request.mutable_action()->set_text(text);
    request.set_seen_sequence(seen_sequence);
    return Send(request);
  }
  std::optional<v1::PlayResponse> Next() {
    v1::PlayResponse response;
    if (!stream_->Read(&response)) return std::nullopt;
    return response;
  }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>> stream_;
};

// A WatchMatch stream on the callback API: collects every public view until the server ends
// the stream.
//
// The call waits for the channel to be ready (a channel still backing off from a restart of the
// service would otherwise fail it at once), for at most kMaxWatch.
class Spectator : public grpc::ClientReadReactor<v1::WatchMatchResponse> {
 public:
  static constexpr absl::Duration kMaxWatch = absl::Minutes(5);

  Spectator(Stub& stub, const std::string& name) {
    context_.set_wait_for_ready(true);
    context_.set_deadline(absl::ToChronoTime(absl::Now() + kMaxWatch));
    request_.set_name(name);
    stub.async()->WatchMatch(&context_, &request_, this);
    StartRead(&response_);
    StartCall();
  }
  ~Spectator() override {
    context_.TryCancel();
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(&done_));
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    {
      absl::MutexLock lock(&mu_);
      views_.push_back(response_.view());
    }
    StartRead(&response_);
  }
  void OnDone(const grpc::Status& status) override {
    absl::MutexLock lock(&mu_);
    status_ = client::FromGrpc(status);
    done_ = true;
  }

  // Waits until at least `count` views have arrived (or the stream ended); true if they have.
  bool WaitForViews(size_t count, absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    auto enough = [this, count]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return views_.size() >= count || done_;
    };
    mu_.AwaitWithTimeout(absl::Condition(&enough), timeout);
    return views_.size() >= count;
  }
  // The stream's status once it has ended; nullopt if it has not within `timeout`.
  std::optional<absl::Status> WaitDone(absl::Duration timeout) {
    absl::MutexLock lock(&mu_);
    if (!mu_.AwaitWithTimeout(absl::Condition(&done_), timeout)) return std::nullopt;
    return status_;
  }
  std::vector<v1::PublicView> views() const {
    absl::MutexLock lock(&mu_);
    return views_;
  }

 private:
  grpc::ClientContext context_;
  v1::WatchMatchRequest request_;
  v1::WatchMatchResponse response_;
  mutable absl::Mutex mu_;
  std::vector<v1::PublicView> views_ ABSL_GUARDED_BY(mu_);
  absl::Status status_ ABSL_GUARDED_BY(mu_);
  bool done_ ABSL_GUARDED_BY(mu_) = false;
};

// ----- Players --------------------------------------------------------------------------------

// What a view said about the event that led to it.
struct SeenEvent {
  int64_t sequence = 0;
  int seat = -1;
  std::string action;
  v1::MatchEvent::Reason reason = v1::MatchEvent::REASON_UNSPECIFIED;
  bool terminal = false;
};

// Every view one seat received, in order (whole views or just their events); filled from
// on_view on a gRPC thread, read from the test's.
class ViewLog {
 public:
  explicit ViewLog(bool keep_views = false) : keep_views_(keep_views) {}
  void Add(const v1::SeatView& view) {
    absl::MutexLock lock(&mu_);
    SeenEvent event;
    event.sequence = view.sequence();
    event.terminal = view.terminal();
    if (view.has_last_event()) {
      event.seat = view.last_event().seat();
      event.action = view.last_event().action().text();
      event.reason = view.last_event().reason();
    }
    events_.push_back(std::move(event));
    if (keep_views_) views_.push_back(view);
  }
  std::vector<SeenEvent> events() const {
    absl::MutexLock lock(&mu_);
    return events_;
  }
  std::vector<v1::SeatView> views() const {
    absl::MutexLock lock(&mu_);
    return views_;
  }
  size_t size() const {
    absl::MutexLock lock(&mu_);
    return events_.size();
  }
  // Waits until `count` views have arrived; whether they have (within `timeout`).
  bool WaitForViews(size_t count, absl::Duration timeout) const {
    absl::MutexLock lock(&mu_);
    auto arrived = [this, count]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return events_.size() >= count;
    };
    return mu_.AwaitWithTimeout(absl::Condition(&arrived), timeout);
  }

 private:
  const bool keep_views_;
  mutable absl::Mutex mu_;
  std::vector<SeenEvent> events_ ABSL_GUARDED_BY(mu_);
  std::vector<v1::SeatView> views_ ABSL_GUARDED_BY(mu_);
};

// One match and the RemotePlayers of its player seats.
struct MatchRun {
  v1::CreateMatchResponse created;
  // By position in created.seat_tokens().
  std::vector<int> seats;
  std::vector<std::unique_ptr<ViewLog>> logs;
  std::vector<std::unique_ptr<client::RemotePlayer>> players;

  const std::string& name() const { return created.match().name(); }
};

struct PlayerSetup {
  // The chooser of seat `seat` of match number `match_index`; RandomChooser by default.
  std::function<client::Chooser(int match_index, int seat)> chooser;
  // Extra options (reconnect, on_view...). The views of each seat are logged in any case
  // (MatchRun::logs); a given on_view runs after that.
  client::RemotePlayerOptions options;
  bool keep_views = false;
};

// Creates (does not start) a RemotePlayer for each seat token of `run`, spread over `stubs`.
inline void AddPlayers(MatchRun& run, int match_index, const std::vector<Stub*>& stubs,
                       const PlayerSetup& setup) {
  for (int i = 0; i < run.created.seat_tokens_size(); ++i) {
    const v1::SeatToken& token = run.created.seat_tokens(i);
    run.seats.push_back(token.seat());
    run.logs.push_back(std::make_unique<ViewLog>(setup.keep_views));
    ViewLog* log = run.logs.back().get();
    client::RemotePlayerOptions options = setup.options;
    std::function<void(const v1::SeatView&)> extra = setup.options.on_view;
    options.on_view = [log, extra](const v1::SeatView& view) {
      log->Add(view);
      if (extra) extra(view);
    };
    client::Chooser chooser =
        setup.chooser ? setup.chooser(match_index, token.seat())
                      : client::RandomChooser(static_cast<uint64_t>(match_index) * 16 +
                                              static_cast<uint64_t>(token.seat()) + 1);
    Stub& stub = *stubs[(static_cast<size_t>(match_index) + static_cast<size_t>(i)) % stubs.size()];
    run.players.push_back(std::make_unique<client::RemotePlayer>(
        stub, run.name(), token.token(), std::move(chooser), std::move(options)));
  }
}

inline void StartAll(std::vector<MatchRun>& runs) {
  for (MatchRun& run : runs) {
    for (auto& player : run.players) player->Start();
  }
}

// Waits for every player (the whole wait bounded by `timeout`); the status of each player, by
// match and then by seat position; a player still running after the timeout gets
// DEADLINE_EXCEEDED.
inline std::vector<std::vector<absl::Status>> WaitAll(std::vector<MatchRun>& runs,
                                                      absl::Duration timeout) {
  const absl::Time until = absl::Now() + timeout;
  std::vector<std::vector<absl::Status>> out;
  for (MatchRun& run : runs) {
    out.emplace_back();
    for (auto& player : run.players) {
      std::optional<absl::Status> status =
          player->WaitFor(std::max(until - absl::Now(), absl::ZeroDuration()));
      out.back().push_back(status.has_value()
                               ? *status
                               : absl::DeadlineExceededError(absl::StrCat(
                                     "the player of ", run.name(), " did not finish in ",
                                     absl::FormatDuration(timeout))));
    }
  }
  return out;
}

// ----- Records --------------------------------------------------------------------------------

inline std::vector<v1::Record::RecordedAction> FlattenActions(const v1::Record& record) {
  std::vector<v1::Record::RecordedAction> out;
  for (const v1::Record::Round& round : record.rounds()) {
    for (const v1::Record::RecordedAction& action : round.actions()) out.push_back(action);
  }
  return out;
}

// The record through the engine's referee.
inline absl::StatusOr<std::unique_ptr<State>> ReplayProto(const v1::Record& proto) {
  absl::StatusOr<Record> record = RecordFromProto(proto);
  if (!record.ok()) return record.status();
  return Replay(*record);
}

// The state after each action of the record: element k is the match after its first k actions
// (element 0 the match as dealt). Deals as the referee takes them: the leading rounds that
// have one, later rounds from the seed.
inline absl::StatusOr<std::vector<std::unique_ptr<State>>> StatesAfterEachAction(
    const v1::Record& proto) {
  absl::StatusOr<Record> record = RecordFromProto(proto);
  if (!record.ok()) return record.status();
  absl::StatusOr<std::shared_ptr<const Game>> game = GameForRecord(*record, DefaultRegistry());
  if (!game.ok()) return game.status();
  std::vector<Deal> deals;
  for (const RecordedRound& round : record->rounds) {
    if (!round.deal.has_value()) break;
    deals.push_back(*round.deal);
  }
  absl::StatusOr<std::unique_ptr<State>> state =
      (*game)->NewMatch(record->seed.value_or(0), std::move(deals));
  if (!state.ok()) return state.status();
  std::vector<std::unique_ptr<State>> out;
  out.push_back(*std::move(state));
  for (const RecordedRound& round : record->rounds) {
    for (const RecordedAction& recorded : round.actions) {
      const State& before = *out.back();
      absl::StatusOr<Action> action = before.ResolveAction(recorded.seat, recorded.action);
      if (!action.ok()) {
        return absl::Status(action.status().code(),
                            absl::StrCat("action ", out.size(), " (seat ", recorded.seat, " '",
                                         recorded.action, "'): ", action.status().message()));
      }
      std::unique_ptr<State> next = before.Clone();
      next->Apply(*action);
      out.push_back(std::move(next));
    }
  }
  return out;
}

inline std::vector<int> Ints(const google::protobuf::RepeatedField<int32_t>& values) {
  return std::vector<int>(values.begin(), values.end());
}

// The result's scores and ranks are the engine's for `state`.
inline ::testing::AssertionResult ResultIsEngines(const v1::MatchResult& result,
                                                  const State& state) {
  const std::vector<int> scores = state.Scores();
  const std::vector<int> ranks = state.Ranks();
  if (Ints(result.scores()) != scores || Ints(result.ranks()) != ranks) {
    return ::testing::AssertionFailure()
           << "result scores [" << absl::StrJoin(result.scores(), ",") << "] ranks ["
           << absl::StrJoin(result.ranks(), ",") << "]; the engine's replay: scores ["
           << absl::StrJoin(scores, ",") << "] ranks [" << absl::StrJoin(ranks, ",") << "]";
  }
  return ::testing::AssertionSuccess();
}


inline bool SameMessage(const google::protobuf::Message& a, const google::protobuf::Message& b) {
  return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

// Truncates every google.protobuf.Timestamp in `message` to whole microseconds, the precision
// the service stores: a view or resource served from memory and the same one served from the
// database then compare equal.
inline void TruncateTimesToMicros(google::protobuf::Message& message) {
  const google::protobuf::Descriptor* descriptor = message.GetDescriptor();
  const google::protobuf::Reflection* reflection = message.GetReflection();
  if (descriptor->full_name() == "google.protobuf.Timestamp") {
    const google::protobuf::FieldDescriptor* nanos = descriptor->FindFieldByName("nanos");
    reflection->SetInt32(&message, nanos, reflection->GetInt32(message, nanos) / 1000 * 1000);
    return;
  }
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const google::protobuf::FieldDescriptor* field : fields) {
    if (field->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        TruncateTimesToMicros(*reflection->MutableRepeatedMessage(&message, field, i));
      }
    } else {
      TruncateTimesToMicros(*reflection->MutableMessage(&message, field));
    }
  }
}

// Equal but for digits below a microsecond in their times.
template <class M>
::testing::AssertionResult SameToTheMicrosecond(const M& a, const M& b) {
  M x = a;
  M y = b;
  TruncateTimesToMicros(x);
  TruncateTimesToMicros(y);
  std::string differences;
  google::protobuf::util::MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&differences);
  if (differencer.Compare(x, y)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "they differ:\n" << differences;
}

inline std::string Text(const google::protobuf::Message& message) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(message, &text);
  return text;
}

// ----- Hidden tiles ---------------------------------------------------------------------------

// A tile written in a text: its pips as written and whether it carried the second copy's "'".
struct TileToken {
  int first = 0;
  int second = 0;
  bool prime = false;
  size_t position = 0;
};

// Every "<pips>-<pips>" token of `text` that is not part of a longer number: not preceded by a
// digit, not followed by a digit. A following "'" (or "\'", as the text format escapes it)
// marks the second copy.
inline std::vector<TileToken> TileTokens(absl::string_view text) {
  std::vector<TileToken> out;
  auto digit = [&](size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
  for (size_t i = 0; i < text.size(); ++i) {
    if (!digit(i) || (i > 0 && digit(i - 1))) continue;
    size_t j = i;
    int a = 0;
    while (digit(j) && j - i < 3) a = a * 10 + (text[j++] - '0');
    if (digit(j) || j >= text.size() || text[j] != '-') continue;
    const size_t b_start = ++j;
    int b = 0;
    while (digit(j) && j - b_start < 3) b = b * 10 + (text[j++] - '0');
    if (j == b_start || digit(j)) continue;
    TileToken token{a, b, false, i};
    if (j < text.size() && text[j] == '\'') token.prime = true;
    if (j + 1 < text.size() && text[j] == '\\' && text[j + 1] == '\'') token.prime = true;
    out.push_back(token);
  }
  return out;
}

// The hidden tiles that `text` names. With `canonical_only`, a tile counts only when written
// high pip first (its notation); otherwise either way round (as a layout may orient it).
inline std::vector<std::string> HiddenTilesIn(absl::string_view text, const TileSet& set,
                                              const TileMask& hidden, bool canonical_only) {
  std::vector<std::string> found;
  for (const TileToken& token : TileTokens(text)) {
    if (canonical_only && token.first < token.second) continue;
    if (token.first > set.max_pip() || token.second > set.max_pip()) continue;
    const Tile tile(token.first, token.second, token.prime ? 1 : 0);
    if (!set.Contains(tile)) continue;
    if (hidden.Test(set.IdOf(tile))) {
      const size_t from = token.position >= 30 ? token.position - 30 : 0;
      found.push_back(absl::StrCat(tile.ToString(), " in «", text.substr(from, 70), "»"));
    }
  }
  return found;
}

// Whether `view`'s event is judged by another deal than the view's: the action that ended a
// round names a tile of that round, played in public, while the view (the state after it)
// shows the next round, dealt anew, where that tile may well be hidden. Such an action is not
// part of the view's hidden-tile check; check it against the record instead.
template <class View>
bool EventEndedARound(const View& view) {
  return view.has_last_event() && view.last_event().round() != view.round();
}

// The hidden tiles a view names: its whole text form (the opaque match name left out, and the
// event's action when EventEndedARound) for tiles in notation, and its text without actions
// (legal actions, the event's action, whose "take 1-3" is positions, not a tile) for tiles
// written either way round.
template <class View>
std::vector<std::string> LeakedTiles(const View& view, const State& state, int seat) {
  const TileMask hidden = state.HiddenFrom(seat);
  const TileSet& set = state.game().tile_set();
  View whole = view;
  whole.clear_match();
  if (EventEndedARound(view)) whole.mutable_last_event()->clear_action();
  std::vector<std::string> found = HiddenTilesIn(Text(whole), set, hidden, true);
  View without_actions = whole;
  if constexpr (std::is_same_v<View, v1::SeatView>) without_actions.clear_legal_actions();
  if (without_actions.has_last_event()) without_actions.mutable_last_event()->clear_action();
  for (std::string& leak : HiddenTilesIn(Text(without_actions), set, hidden, false)) {
    found.push_back(std::move(leak));
  }
  return found;
}

inline std::vector<std::string> TileStrings(const std::vector<Tile>& tiles) {
  std::vector<std::string> out;
  for (const Tile& tile : tiles) out.push_back(tile.ToString());
  return out;
}

}  // namespace boneyard::e2e

#endif  // BONEYARD_TESTS_SERVICES_E2E_E2E_HELPERS_H_
