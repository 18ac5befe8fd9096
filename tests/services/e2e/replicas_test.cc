// Execution replicas (docs/scaling.md) as real processes on one database: a call about a match
// another replica plays is answered with where it is played (a WrongReplica detail); a replica
// paused with
// SIGSTOP past its lease loses its matches to another, which adopts them by replaying their
// logs; when the paused one wakes, a write it was sent meanwhile — which would take the next
// free place in the log — is refused, it stops (exit code 3, fenced), and nothing forks: every
// action acknowledged before the pause is in the final record at its place, and the one played
// after it is the adopter's.
#include <signal.h>
#include <sys/wait.h>

#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "services/common/status_detail.h"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

constexpr int kMatches = 4;
constexpr int kActionsBeforePause = 3;
// Guards against hangs only.
constexpr absl::Duration kAdoptionTimeout = absl::Seconds(30);
constexpr int kMaxActions = 2000;

struct Played {
  std::string name;
  std::vector<std::string> tokens;   // by seat
  std::vector<std::string> actions;  // acknowledged, in order
};

// The view of whichever seat is to play, from `stub`.
absl::StatusOr<v1::SeatView> ToPlay(Stub& stub, const Played& m) {
  absl::StatusOr<v1::SeatView> view = HelloView(stub, m.tokens[0], m.name);
  if (!view.ok() || view->terminal()) return view;
  return HelloView(stub, m.tokens[static_cast<size_t>(view->current_seat())], m.name);
}

// Plays `m`'s next action (the first legal one, or the last with `last`) on `stub`.
absl::Status PlayOne(Stub& stub, Played& m, bool last = false) {
  absl::StatusOr<v1::SeatView> view = ToPlay(stub, m);
  if (!view.ok()) return view.status();
  if (view->terminal()) return absl::OutOfRangeError("over");
  const std::string action = view->legal_actions(last ? view->legal_actions_size() - 1 : 0).text();
  absl::StatusOr<v1::SeatView> played = SubmitAction(
      stub, m.tokens[static_cast<size_t>(view->seat())], m.name, action, view->sequence());
  if (!played.ok()) return played.status();
  m.actions.push_back(action);
  return absl::OkStatus();
}

std::vector<std::string> RecordActions(const v1::Record& record) {
  std::vector<std::string> out;
  for (const v1::Record::Round& round : record.rounds()) {
    for (const v1::Record::RecordedAction& a : round.actions()) out.push_back(a.action());
  }
  return out;
}

// Two execution processes on one new database, and a stub for each.
class ReplicasTest : public ::testing::Test {
 protected:
  void StartTwoReplicas(std::vector<std::string> flags) {
    absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    flags.push_back("--database_url=" + db_->url());
    flags.push_back("--log_level=info");
    for (auto* replica : {&a_, &b_}) {
      absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> started =
          testing::ServiceProcess::Start(BONEYARD_EXECUTION_BINARY, flags);
      ASSERT_TRUE(started.ok()) << started.status();
      *replica = *std::move(started);
    }
    stub_a_ = v1::ExecutionService::NewStub(
        grpc::CreateChannel(a_->target(), grpc::InsecureChannelCredentials()));
    stub_b_ = v1::ExecutionService::NewStub(
        grpc::CreateChannel(b_->target(), grpc::InsecureChannelCredentials()));
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<testing::ServiceProcess> a_;
  std::unique_ptr<testing::ServiceProcess> b_;
  std::unique_ptr<Stub> stub_a_;
  std::unique_ptr<Stub> stub_b_;
};

TEST_F(ReplicasTest, APausedReplicasMatchesMoveAndItsWritesAreRefusedOnceItWakes) {
  ASSERT_NO_FATAL_FAILURE(
      StartTwoReplicas({"--lease=1s", "--adopt_interval=100ms", "--seat_flood_rate=0"}));

  // Matches on a, a few actions acknowledged in each.
  std::vector<Played> matches(kMatches);
  for (Played& m : matches) {
    absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(
        *stub_a_, a_->operator_token(), MatchRequest("muggins", {{"target", IntRule(61)}}, 2));
    ASSERT_TRUE(created.ok()) << created.status();
    m.name = created->match().name();
    m.tokens.resize(2);
    for (const v1::SeatToken& t : created->seat_tokens()) {
      m.tokens[static_cast<size_t>(t.seat())] = t.token();
    }
    for (int i = 0; i < kActionsBeforePause; ++i) ASSERT_TRUE(PlayOne(*stub_a_, m).ok());
  }
  // b does not play a's matches while a holds its lease: it says where they are played, and
  // answers GetMatch with where the match stands.
  absl::StatusOr<v1::SeatView> elsewhere = ToPlay(*stub_b_, matches[0]);
  EXPECT_EQ(elsewhere.status().code(), absl::StatusCode::kUnavailable) << elsewhere.status();
  absl::StatusOr<v1::SeatView> submitted =
      SubmitAction(*stub_b_, matches[0].tokens[0], matches[0].name, "6-6", kActionsBeforePause);
  ASSERT_EQ(submitted.status().code(), absl::StatusCode::kUnavailable) << submitted.status();
  std::optional<v1::WrongReplica> where = GetStatusDetail<v1::WrongReplica>(submitted.status());
  ASSERT_TRUE(where.has_value()) << submitted.status();
  EXPECT_EQ(where->address(), a_->target());
  EXPECT_EQ(where->match(), matches[0].name);
  absl::StatusOr<v1::Match> aborted =
      AbortMatch(*stub_b_, b_->operator_token(), matches[0].name, "maintenance");
  EXPECT_EQ(aborted.status().code(), absl::StatusCode::kUnavailable) << aborted.status();
  EXPECT_TRUE(GetStatusDetail<v1::WrongReplica>(aborted.status()).has_value());
  absl::StatusOr<v1::Match> described = GetMatch(*stub_b_, matches[0].name);
  ASSERT_TRUE(described.ok()) << described.status();
  EXPECT_EQ(described->sequence(), kActionsBeforePause);
  EXPECT_EQ(described->state(), v1::Match::ACTIVE);

  ASSERT_EQ(kill(a_->pid(), SIGSTOP), 0);
  const absl::Time paused = absl::Now();
  // A write sent to a while it is paused: it waits in a's socket.
  Played late = matches[0];
  std::future<absl::Status> late_write =
      std::async(std::launch::async, [&] { return PlayOne(*stub_a_, late); });

  // b adopts every match once a's lease has lapsed.
  for (const Played& m : matches) {
    absl::StatusOr<v1::SeatView> view;
    do {
      absl::SleepFor(absl::Milliseconds(20));
      view = ToPlay(*stub_b_, m);
    } while (!view.ok() && absl::Now() - paused < kAdoptionTimeout);
    ASSERT_TRUE(view.ok()) << view.status() << "\n" << b_->log();
    EXPECT_EQ(view->sequence(), kActionsBeforePause);
  }
  std::cout << "adopted within " << absl::FormatDuration(absl::Now() - paused)
            << " of the pause (lease 1s)\n";

  // a wakes before b has played on, so its write would take the next place in the log: only
  // the fence refuses it.
  ASSERT_EQ(kill(a_->pid(), SIGCONT), 0);
  const absl::Status refused = late_write.get();
  EXPECT_FALSE(refused.ok()) << "a wrote after it was fenced";
  std::cout << "the paused replica's write: " << refused << "\n";
  // b plays on: the next action is its own (the last legal one, where a played the first).
  for (Played& m : matches) ASSERT_TRUE(PlayOne(*stub_b_, m, /*last=*/true).ok());
  // a stops itself, fenced.
  const absl::Time woke = absl::Now();
  while (!absl::StrContains(a_->log(), "fenced") && absl::Now() - woke < kAdoptionTimeout) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  absl::SleepFor(absl::Milliseconds(200));
  ASSERT_TRUE(a_->Kill(SIGKILL).ok());
  ASSERT_TRUE(a_->last_wait_status().has_value());
  EXPECT_TRUE(WIFEXITED(*a_->last_wait_status()) && WEXITSTATUS(*a_->last_wait_status()) == 3)
      << a_->log();

  // Every match plays out on b; its record holds a's acknowledged actions, then b's.
  for (Played& m : matches) {
    absl::Status s;
    for (int i = 0; i < kMaxActions && (s = PlayOne(*stub_b_, m)).ok(); ++i) {
    }
    ASSERT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
    absl::StatusOr<v1::Record> record = GetRecord(*stub_b_, m.name);
    ASSERT_TRUE(record.ok()) << record.status();
    EXPECT_EQ(RecordActions(*record), m.actions) << m.name;
  }
}

// A remote player pointed at the wrong replica follows the WrongReplica answer to the one that
// plays its match, and plays it out there; without following, it only retries where it was.
TEST_F(ReplicasTest, APlayerFollowsItsMatchToTheReplicaThatPlaysIt) {
  ASSERT_NO_FATAL_FAILURE(StartTwoReplicas({}));
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(
      *stub_a_, a_->operator_token(), MatchRequest("muggins", {{"target", IntRule(61)}}, 2));
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string name = created->match().name();

  // Not following: the player retries b until it gives up.
  client::RemotePlayerOptions stay;
  stay.reconnect = client::ReconnectPolicy{.give_up_after = absl::Milliseconds(500)};
  client::RemotePlayer stuck(*stub_b_, name, created->seat_tokens(0).token(),
                             client::RandomChooser(1), stay);
  stuck.Start();
  const absl::Status gave_up = stuck.Wait();
  EXPECT_EQ(gave_up.code(), absl::StatusCode::kUnavailable) << gave_up;

  // Following: both seats, sent to b, play the match out on a.
  client::RemotePlayerOptions follow;
  follow.reconnect = client::ReconnectPolicy{.give_up_after = absl::Seconds(30)};
  std::vector<std::string> followed;
  absl::Mutex mu;
  follow.follow_replica = [&](const std::string& address) {
    {
      absl::MutexLock lock(&mu);
      followed.push_back(address);
    }
    return std::shared_ptr<v1::ExecutionService::StubInterface>(v1::ExecutionService::NewStub(
        grpc::CreateChannel(address, grpc::InsecureChannelCredentials())));
  };
  std::vector<std::unique_ptr<client::RemotePlayer>> players;
  for (const v1::SeatToken& seat : created->seat_tokens()) {
    players.push_back(std::make_unique<client::RemotePlayer>(
        *stub_b_, name, seat.token(), client::RandomChooser(seat.seat() + 7), follow));
    players.back()->Start();
  }
  for (const auto& player : players) {
    const absl::Status s = player->Wait();
    EXPECT_TRUE(s.ok()) << s;
    EXPECT_GE(player->stats().reconnects, 1);
  }
  {
    absl::MutexLock lock(&mu);
    ASSERT_EQ(followed.size(), 2u);
    EXPECT_EQ(followed[0], a_->target());
  }
  absl::StatusOr<v1::Record> record = GetRecord(*stub_a_, name);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_GT(RecordActions(*record).size(), 10u);
}

}  // namespace
}  // namespace boneyard::e2e
