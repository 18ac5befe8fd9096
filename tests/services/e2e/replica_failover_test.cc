// Three execution replicas (docs/scaling.md) as real processes on one database, with a remote
// player on every seat of every match, each reaching the replicas through one address list (as
// through a Kubernetes Service) and following its match wherever it is played:
//  - a replica that drains (SIGTERM) hands its matches to the other two at once — with a lease
//    of a minute, nothing else could move them within the test — and exits cleanly;
//  - a replica killed with SIGKILL loses its matches to the others once its lease lapses; the
//    time from the kill until each of its matches moves on is printed;
//  - new matches asked of one replica are spread over the three (placement on the least
//    loaded).
// Either way every match is played out by its players; every event a player was shown is in
// the final record at its place (nothing acknowledged is lost, nothing forks), and the record
// replays through the engine's referee (nothing was applied twice out of turn).
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

constexpr int kReplicas = 3;
constexpr int kMatchesPerReplica = 4;
// Each action waits this long, so the matches are still being played when a replica goes.
constexpr absl::Duration kThink = absl::Milliseconds(15);
// Guards against hangs only.
constexpr absl::Duration kPlayTimeout = absl::Seconds(60);

// One match and what its players were shown.
struct Watched {
  std::string name;
  int created_on = 0;  // the replica it was created on
  std::vector<std::unique_ptr<client::RemotePlayer>> players;
  absl::Mutex mu;
  // sequence -> "seat: action", as the views' last events showed them.
  std::map<int64_t, std::string> shown ABSL_GUARDED_BY(mu);
  std::vector<std::string> forks ABSL_GUARDED_BY(mu);
  absl::Time last_view ABSL_GUARDED_BY(mu) = absl::InfinitePast();
  absl::Time first_view_after_loss ABSL_GUARDED_BY(mu) = absl::InfiniteFuture();
  absl::Time lost ABSL_GUARDED_BY(mu) = absl::InfiniteFuture();
};

class ReplicaFailoverTest : public ::testing::Test {
 protected:
  void StartReplicas(std::vector<std::string> flags) {
    absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    flags.push_back("--database_url=" + db_->url());
    flags.push_back("--seat_flood_rate=0");
    std::vector<std::string> addresses;
    for (int i = 0; i < kReplicas; ++i) {
      absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> started =
          testing::ServiceProcess::Start(BONEYARD_EXECUTION_BINARY, flags);
      ASSERT_TRUE(started.ok()) << started.status();
      replicas_.push_back(*std::move(started));
      stubs_.push_back(v1::ExecutionService::NewStub(
          grpc::CreateChannel(replicas_.back()->target(), grpc::InsecureChannelCredentials())));
      addresses.push_back(replicas_.back()->target());
    }
    // Every replica behind one name: gRPC's pick_first takes the first that answers, and the
    // next when it goes.
    home_ = v1::ExecutionService::NewStub(grpc::CreateChannel(
        absl::StrCat("ipv4:", absl::StrJoin(addresses, ",")), grpc::InsecureChannelCredentials()));
  }

  // kMatchesPerReplica Muggins matches created on each replica, a random remote player on
  // every seat; started.
  void StartMatches() {
    for (int r = 0; r < kReplicas; ++r) {
      for (int i = 0; i < kMatchesPerReplica; ++i) {
        absl::StatusOr<v1::CreateMatchResponse> created =
            CreateMatch(*stubs_[r], replicas_[r]->operator_token(),
                        MatchRequest("muggins", {{"target", IntRule(101)}}, 2));
        ASSERT_TRUE(created.ok()) << created.status();
        auto watched = std::make_unique<Watched>();
        watched->name = created->match().name();
        watched->created_on = r;
        for (const v1::SeatToken& seat : created->seat_tokens()) {
          client::RemotePlayerOptions options;
          options.reconnect = client::ReconnectPolicy{.give_up_after = kPlayTimeout};
          options.follow_replica = client::PlaintextStubs();
          options.think = [] { return kThink; };
          options.on_view = [w = watched.get()](const v1::SeatView& view) { Shown(*w, view); };
          watched->players.push_back(std::make_unique<client::RemotePlayer>(
              *home_, watched->name, seat.token(),
              client::RandomChooser(static_cast<uint64_t>(r * 100 + i * 10 + seat.seat())),
              std::move(options)));
        }
        matches_.push_back(std::move(watched));
      }
    }
    for (auto& m : matches_) {
      for (auto& player : m->players) player->Start();
    }
  }

  static void Shown(Watched& m, const v1::SeatView& view) {
    absl::MutexLock lock(&m.mu);
    const absl::Time now = absl::Now();
    m.last_view = now;
    if (now > m.lost && m.first_view_after_loss == absl::InfiniteFuture()) {
      m.first_view_after_loss = now;
    }
    if (!view.has_last_event() || view.last_event().reason() != v1::MatchEvent::PLAYED) return;
    const std::string event =
        absl::StrCat(view.last_event().seat(), ": ", view.last_event().action().text());
    auto [it, inserted] = m.shown.emplace(view.last_event().sequence(), event);
    if (!inserted && it->second != event) {
      m.forks.push_back(absl::StrCat("#", it->first, " shown as ", it->second, " and ", event));
    }
  }

  // Waits until every match has shown `views` views' worth of events.
  void WaitForProgress(size_t events) {
    const absl::Time start = absl::Now();
    for (auto& m : matches_) {
      while (absl::Now() - start < kPlayTimeout) {
        {
          absl::MutexLock lock(&m->mu);
          if (m->shown.size() >= events) break;
        }
        absl::SleepFor(absl::Milliseconds(10));
      }
    }
  }

  // Every player finishes its match; every event shown is the record's at its place, and the
  // record replays.
  void ExpectEveryMatchPlayedOutWithoutLossOrFork() {
    for (auto& m : matches_) {
      for (auto& player : m->players) {
        const std::optional<absl::Status> done = player->WaitFor(kPlayTimeout);
        ASSERT_TRUE(done.has_value()) << m->name << " still playing";
        EXPECT_TRUE(done->ok()) << m->name << ": " << *done;
      }
      absl::StatusOr<v1::Record> record = GetRecord(*home_, m->name);
      ASSERT_TRUE(record.ok()) << m->name << ": " << record.status();
      const std::vector<v1::Record::RecordedAction> actions = FlattenActions(*record);
      absl::MutexLock lock(&m->mu);
      EXPECT_TRUE(m->forks.empty()) << m->name << ": " << absl::StrJoin(m->forks, "; ");
      for (const auto& [sequence, event] : m->shown) {
        ASSERT_GE(sequence, 1);
        ASSERT_LE(sequence, static_cast<int64_t>(actions.size())) << m->name;
        const v1::Record::RecordedAction& a = actions[static_cast<size_t>(sequence - 1)];
        EXPECT_EQ(absl::StrCat(a.seat(), ": ", a.action()), event) << m->name << " #" << sequence;
      }
      absl::StatusOr<std::unique_ptr<State>> replayed = ReplayProto(*record);
      ASSERT_TRUE(replayed.ok()) << m->name << ": " << replayed.status();
      EXPECT_TRUE((*replayed)->IsTerminal()) << m->name;
    }
  }

  // Marks the matches created on replica `r` as lost from now.
  void MarkLost(int r) {
    const absl::Time now = absl::Now();
    for (auto& m : matches_) {
      if (m->created_on != r) continue;
      absl::MutexLock lock(&m->mu);
      m->lost = now;
    }
  }

  // How long after the loss each match created on `r` showed a view again, sorted.
  std::vector<absl::Duration> Recoveries(int r) {
    std::vector<absl::Duration> out;
    for (auto& m : matches_) {
      if (m->created_on != r) continue;
      absl::MutexLock lock(&m->mu);
      out.push_back(m->first_view_after_loss - m->lost);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::vector<std::unique_ptr<testing::ServiceProcess>> replicas_;
  std::vector<std::unique_ptr<Stub>> stubs_;
  std::unique_ptr<Stub> home_;
  // Destroyed first (players before the stubs they use).
  std::vector<std::unique_ptr<Watched>> matches_;

  void TearDown() override { matches_.clear(); }
};

TEST_F(ReplicaFailoverTest, ADrainingReplicaHandsItsMatchesOverAndItsPlayersFollowThem) {
  // A lease of a minute: within the test, only a hand-over can move a match.
  ASSERT_NO_FATAL_FAILURE(StartReplicas({"--lease=60s", "--adopt_interval=100ms"}));
  ASSERT_NO_FATAL_FAILURE(StartMatches());
  WaitForProgress(4);

  MarkLost(0);
  ASSERT_TRUE(replicas_[0]->Stop().ok()) << replicas_[0]->log();  // SIGTERM: exit 0
  EXPECT_NE(replicas_[0]->log().find("handed over"), std::string::npos) << replicas_[0]->log();
  ASSERT_NO_FATAL_FAILURE(ExpectEveryMatchPlayedOutWithoutLossOrFork());
  std::vector<absl::Duration> moved = Recoveries(0);
  std::cout << "after the SIGTERM, each of its matches was played on in: "
            << absl::StrJoin(moved, ", ",
                             [](std::string* out, absl::Duration d) {
                               absl::StrAppend(out, absl::FormatDuration(d));
                             })
            << "\n";
  // Each moved within the test, so it was handed over (the lease had a minute to run).
  EXPECT_LT(moved.back(), absl::Seconds(60));
}

TEST_F(ReplicaFailoverTest, AKilledReplicasMatchesAreAdoptedAndPlayedOutWithoutLossOrFork) {
  // The default lease and adopt interval (3 s, 500 ms).
  ASSERT_NO_FATAL_FAILURE(StartReplicas({}));
  ASSERT_NO_FATAL_FAILURE(StartMatches());
  WaitForProgress(4);

  MarkLost(0);
  ASSERT_TRUE(replicas_[0]->Kill(SIGKILL).ok());
  ASSERT_NO_FATAL_FAILURE(ExpectEveryMatchPlayedOutWithoutLossOrFork());
  std::vector<absl::Duration> adopted = Recoveries(0);
  std::cout << "after the kill -9 (lease 3s, adopt interval 500ms), each of its matches was "
               "played on in: "
            << absl::StrJoin(adopted, ", ",
                             [](std::string* out, absl::Duration d) {
                               absl::StrAppend(out, absl::FormatDuration(d));
                             })
            << "\n";
}

// New matches go to the replica with the fewest live matches: all asked of one replica, they
// end up spread over the three (each replica shares its load at every renewal of its lease).
TEST_F(ReplicaFailoverTest, NewMatchesArePlacedOnTheLeastLoadedReplica) {
  // Replicas share their operator token, as a Kubernetes Secret gives it to every pod.
  const std::string token_file = ::testing::TempDir() + "/placement_operator_token";
  {
    std::ofstream file(token_file, std::ios::trunc);
    file << "placement-test-operator-token-0123456789\n";
  }
  ASSERT_NO_FATAL_FAILURE(StartReplicas({"--lease=600ms", "--operator_token_file=" + token_file}));
  absl::SleepFor(absl::Seconds(1));  // a few renewals: every replica knows the others' loads
  constexpr int kCreated = 12;
  for (int i = 0; i < kCreated; ++i) {
    absl::StatusOr<v1::CreateMatchResponse> created =
        CreateMatch(*stubs_[0], replicas_[0]->operator_token(),
                    MatchRequest("muggins", {{"target", IntRule(101)}}, 2));
    ASSERT_TRUE(created.ok()) << created.status();
    absl::StatusOr<v1::Match> match = GetMatch(*home_, created->match().name());
    ASSERT_TRUE(match.ok()) << match.status();
    EXPECT_EQ(match->state(), v1::Match::ACTIVE);
  }
  std::map<int64_t, int64_t> by_owner;
  pqxx::connection connection(db_->url());
  pqxx::read_transaction tx(connection);
  for (const pqxx::row& row :
       tx.exec("SELECT owner_epoch, count(*) FROM exec.matches GROUP BY owner_epoch")) {
    by_owner[row[0].as<int64_t>()] = row[1].as<int64_t>();
  }
  std::string spread;
  for (const auto& [epoch, count] : by_owner) absl::StrAppend(&spread, count, " ");
  std::cout << "12 matches asked of one replica are played by the three as: " << spread << "\n";
  EXPECT_EQ(by_owner.size(), 3u) << spread;
  for (const auto& [epoch, count] : by_owner) EXPECT_LT(count, kCreated) << spread;
}

}  // namespace
}  // namespace boneyard::e2e
