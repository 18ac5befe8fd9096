// The matchmaker against a real execution service (a boneyard-execution child process on its
// own database) and the matchmaking store on the test PostgreSQL: matches formed from tickets
// are created on execution, seat tokens reach only their players, team matches sit in the
// engine's team seats, bots fill after the wait, tickets expire; and no ticket is ever in two
// matches — under concurrent cancels, two matchmakers (as two processes would be) at once, an
// execution outage and an answer lost after execution created the match.
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/bearer.h"
#include "services/common/engine_proto.h"
#include "services/matchmaking/execution_creator.h"
#include "services/matchmaking/matchmaker.h"
#include "services/matchmaking/matchmaker_metrics.h"
#include "prometheus/metric_family.h"
#include "prometheus/registry.h"
#include "services/matchmaking/rating_cache.h"
#include "services/matchmaking/ratings_fetcher.h"
#include "tests/services/matchmaking/matchmaking_test_fixture.h"
#include "tests/services/service_process.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Passes the request on, then answers UNAVAILABLE: execution created the match, but the answer
// was lost (a timeout, a crash of matchmaking before it recorded it).
class LosesAnswers : public MatchCreator {
 public:
  explicit LosesAnswers(MatchCreator& real) : real_(real) {}
  absl::StatusOr<CreatedMatch> CreateMatch(const v1::CreateMatchRequest& request) override {
    absl::StatusOr<CreatedMatch> created = real_.CreateMatch(request);
    if (!created.ok()) return created.status();
    return absl::UnavailableError("the answer was lost");
  }
  std::string target() const override { return real_.target(); }

 private:
  MatchCreator& real_;
};

class MatchmakerTest : public MatchmakingTest {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
    ASSERT_TRUE(db.ok()) << db.status();
    database_ = db->release();
    absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> execution =
        testing::ServiceProcess::Start(BONEYARD_EXECUTION_BINARY,
                                       {"--database_url=" + database_->url()});
    ASSERT_TRUE(execution.ok()) << execution.status();
    execution_ = execution->release();
  }
  static void TearDownTestSuite() {
    delete execution_;
    execution_ = nullptr;
    delete database_;
    database_ = nullptr;
  }

  void SetUp() override {
    ASSERT_NE(execution_, nullptr);
    MatchmakingTest::SetUp();
    creator_ = std::make_unique<ExecutionCreator>(execution_->target(),
                                                  execution_->operator_token());
    execution_stub_ = v1::ExecutionService::NewStub(
        grpc::CreateChannel(execution_->target(), grpc::InsecureChannelCredentials()));
    v1::Queue created;
    ASSERT_TRUE(CreateQueue("forty-two", FortyTwoQueue(), &created).ok());
    v1::Queue duel = FortyTwoQueue();
    duel.set_game("muggins");
    duel.set_display_name("Muggins, one on one");
    duel.clear_rules();
    duel.mutable_format()->mutable_head_to_head();
    duel.mutable_max_wait()->set_seconds(30);
    ASSERT_TRUE(CreateQueue("muggins", duel, &created).ok());
  }

  v1::Ticket Queue(const std::string& token, const std::string& queue,
                   const std::string& party = "") {
    v1::CreateTicketRequest request;
    request.set_queue(queue);
    request.set_party(party);
    v1::Ticket ticket;
    grpc::Status status = stub_->CreateTicket(Context(token).get(), request, &ticket);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return ticket;
  }
  v1::Ticket Ticket(const std::string& token, const std::string& name) {
    v1::GetTicketRequest request;
    request.set_name(name);
    v1::Ticket ticket;
    grpc::Status status = stub_->GetTicket(Context(token).get(), request, &ticket);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return ticket;
  }
  PassReport Pass(MatchCreator& creator, absl::Time now = absl::Now()) {
    Matchmaker matchmaker(*store_, creator);
    absl::StatusOr<PassReport> report = matchmaker.RunPass(now);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : PassReport{};
  }
  v1::Match GetMatch(const std::string& name) {
    v1::GetMatchRequest request;
    request.set_name(name);
    v1::Match match;
    grpc::ClientContext context;
    AddBearerToken(context, execution_->operator_token());
    grpc::Status status = execution_stub_->GetMatch(&context, request, &match);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return match;
  }
  // How many matches execution holds.
  int ExecutionMatches() {
    v1::ListMatchesRequest request;
    request.set_page_size(1000);
    v1::ListMatchesResponse response;
    grpc::ClientContext context;
    AddBearerToken(context, execution_->operator_token());
    grpc::Status status = execution_stub_->ListMatches(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.matches_size();
  }
  // A table of the test's schema.
  std::string T(const std::string& table) const { return schema_ + "." + table; }
  // How many rows `from` (a FROM clause's body) holds.
  int64_t Count(const std::string& from) {
    absl::StatusOr<int64_t> n = pool_->Run(
        [&](pqxx::work& tx) { return tx.exec1("SELECT count(*) FROM " + from)[0].as<int64_t>(); });
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : -1;
  }
  // The safety property: no ticket in two formed matches, every MATCHED ticket in exactly one,
  // no CANCELLED or EXPIRED ticket in any, and every formed match created once on execution.
  void ExpectNoTicketInTwoMatches(int execution_matches_before) {
    EXPECT_EQ(Count("(SELECT ticket_id FROM " + T("seatings") +
                    " GROUP BY ticket_id HAVING count(DISTINCT request_id) > 1) x"),
              0);
    EXPECT_EQ(Count(T("tickets") + " t WHERE state = 2 AND NOT EXISTS (SELECT 1 FROM " +
                    T("seatings") + " s WHERE s.ticket_id = t.ticket_id)"),
              0);
    EXPECT_EQ(Count(T("tickets") + " t WHERE state IN (3, 4) AND EXISTS (SELECT 1 FROM " +
                    T("seatings") + " s WHERE s.ticket_id = t.ticket_id)"),
              0);
    EXPECT_EQ(Count(T("formed_matches") + " WHERE match_name IS NULL"), 0);
    EXPECT_EQ(ExecutionMatches() - execution_matches_before, Count(T("formed_matches")));
  }

  static testing::TestDatabase* database_;
  static testing::ServiceProcess* execution_;
  std::unique_ptr<ExecutionCreator> creator_;
  std::unique_ptr<v1::ExecutionService::Stub> execution_stub_;
};

testing::TestDatabase* MatchmakerTest::database_ = nullptr;
testing::ServiceProcess* MatchmakerTest::execution_ = nullptr;

TEST_F(MatchmakerTest, TwoPlayersAreMatchedOnExecutionAndEachGetsOnlyTheirSeatToken) {
  const std::vector<std::string> tokens = Players(2);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  const v1::Ticket bob = Queue(tokens[1], "queues/muggins");
  const PassReport report = Pass(*creator_);
  EXPECT_EQ(report.searching, 2);
  EXPECT_EQ(report.claimed, 1);
  EXPECT_EQ(report.created, 1);

  const v1::Ticket seen = Ticket(tokens[0], ann.name());
  EXPECT_EQ(seen.state(), v1::Ticket::MATCHED);
  ASSERT_EQ(seen.assignments_size(), 1);
  const v1::Assignment& mine = seen.assignments(0);
  EXPECT_EQ(mine.player(), "players/p0");
  EXPECT_THAT(mine.match(), ::testing::StartsWith("matches/"));
  EXPECT_EQ(mine.execution_target(), execution_->target());
  EXPECT_EQ(mine.team(), -1);
  EXPECT_EQ(mine.bots(), 0);
  EXPECT_NEAR(mine.win_chance(), 0.5, 1e-9);
  EXPECT_FALSE(mine.seat_token().empty());
  // Bob sees his own seat's token, never Ann's; the operator sees none.
  const v1::Ticket bobs = Ticket(tokens[1], bob.name());
  ASSERT_EQ(bobs.assignments_size(), 1);
  EXPECT_EQ(bobs.assignments(0).match(), mine.match());
  EXPECT_NE(bobs.assignments(0).seat(), mine.seat());
  EXPECT_FALSE(bobs.assignments(0).seat_token().empty());
  EXPECT_NE(bobs.assignments(0).seat_token(), mine.seat_token());
  EXPECT_TRUE(Ticket(kOperatorToken, ann.name()).assignments(0).seat_token().empty());

  // Execution seats them as the assignments say.
  const v1::Match match = GetMatch(mine.match());
  EXPECT_EQ(match.game(), "muggins");
  ASSERT_EQ(match.seats_size(), 2);
  EXPECT_EQ(match.seats(mine.seat()).player().player_id(), "p0");
  EXPECT_EQ(match.seats(bobs.assignments(0).seat()).player().player_id(), "p1");

  // Both are free to queue again, and the match is in their history.
  Queue(tokens[0], "queues/muggins");
  v1::ListPlayerMatchesRequest request;
  request.set_name("players/p1");
  v1::ListPlayerMatchesResponse history;
  ASSERT_TRUE(stub_->ListPlayerMatches(Context().get(), request, &history).ok());
  ASSERT_EQ(history.matches_size(), 1);
  EXPECT_EQ(history.matches(0).match(), mine.match());
  EXPECT_EQ(history.matches(0).queue(), "queues/muggins");
  EXPECT_EQ(history.matches(0).game(), "muggins");
  EXPECT_FALSE(history.matches(0).has_result());
}

TEST_F(MatchmakerTest, ATeamMatchSitsPartnersInTheEnginesTeamSeatsAndKeepsAPartyTogether) {
  const std::vector<std::string> tokens = Players(4);
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  ASSERT_TRUE(Join(tokens[3], party.invite_code(), &party).ok());
  const v1::Ticket pair = Queue(tokens[0], "queues/forty-two", party.name());
  Queue(tokens[1], "queues/forty-two");
  Queue(tokens[2], "queues/forty-two");
  EXPECT_EQ(Pass(*creator_).created, 1);

  const v1::Ticket seen = Ticket(tokens[3], pair.name());
  ASSERT_EQ(seen.state(), v1::Ticket::MATCHED);
  ASSERT_EQ(seen.assignments_size(), 2);
  EXPECT_EQ(seen.assignments(0).player(), "players/p0");
  EXPECT_EQ(seen.assignments(1).player(), "players/p3");
  // Partners: one team, sat across the table (Forty-Two's teams are seats 0+2 and 1+3).
  EXPECT_EQ(seen.assignments(0).team(), seen.assignments(1).team());
  EXPECT_EQ((seen.assignments(0).seat() + 2) % 4, seen.assignments(1).seat());
  EXPECT_EQ(seen.assignments(0).seat() % 2, seen.assignments(0).team());
  // Only p3's own token is shown to p3.
  EXPECT_TRUE(seen.assignments(0).seat_token().empty());
  EXPECT_FALSE(seen.assignments(1).seat_token().empty());
  const v1::Match match = GetMatch(seen.assignments(0).match());
  ASSERT_EQ(match.seats_size(), 4);
  ASSERT_EQ(match.teams_size(), 2);
  for (int seat = 0; seat < 4; ++seat) EXPECT_TRUE(match.seats(seat).has_player()) << seat;
}

TEST_F(MatchmakerTest, BotsFillTheEmptySeatsAfterTheWait) {
  const std::vector<std::string> tokens = Players(1);
  const v1::Ticket alone = Queue(tokens[0], "queues/forty-two");
  EXPECT_EQ(Pass(*creator_).claimed, 0);  // not yet: the queue waits a minute for people
  EXPECT_EQ(Pass(*creator_, absl::Now() + absl::Seconds(61)).created, 1);
  const v1::Ticket seen = Ticket(tokens[0], alone.name());
  ASSERT_EQ(seen.state(), v1::Ticket::MATCHED);
  EXPECT_EQ(seen.assignments(0).bots(), 3);
  const v1::Match match = GetMatch(seen.assignments(0).match());
  int bots = 0;
  for (const v1::Seat& seat : match.seats()) bots += seat.has_bot();
  EXPECT_EQ(bots, 3);
  EXPECT_EQ(match.seats(seen.assignments(0).seat()).player().player_id(), "p0");
  // A rated queue, but its bot fill does not say bots' matches count: created casual.
  EXPECT_TRUE(match.casual());
}

TEST_F(MatchmakerTest, AMatchWithBotsCountsForTheRatingsOnlyWhenTheQueueSaysSo) {
  v1::Queue queue = FortyTwoQueue();
  queue.mutable_bot_fill()->set_rated(true);
  v1::Queue created;
  ASSERT_TRUE(CreateQueue("forty-two-rated-bots", queue, &created).ok());
  const std::vector<std::string> tokens = Players(5);
  const v1::Ticket alone = Queue(tokens[0], "queues/forty-two-rated-bots");
  ASSERT_EQ(Pass(*creator_, absl::Now() + absl::Seconds(61)).created, 1);
  const v1::Ticket seen = Ticket(tokens[0], alone.name());
  ASSERT_EQ(seen.assignments_size(), 1);
  EXPECT_FALSE(GetMatch(seen.assignments(0).match()).casual());
  // Four people and no bot in the queue that does not rate bots' matches: rated.
  std::vector<v1::Ticket> four;
  for (int i = 1; i < 5; ++i) four.push_back(Queue(tokens[i], "queues/forty-two"));
  ASSERT_EQ(Pass(*creator_).created, 1);
  const v1::Ticket table = Ticket(tokens[1], four[0].name());
  ASSERT_EQ(table.assignments_size(), 1);
  EXPECT_FALSE(GetMatch(table.assignments(0).match()).casual());
}

// Fixed ratings, as the ratings service would have them.
class FixedRatings : public RatingSource {
 public:
  explicit FixedRatings(std::map<std::string, ratings::SkillRating> ratings)
      : ratings_(std::move(ratings)) {}
  std::map<std::string, ratings::SkillRating> Ratings(
      const std::string&, const std::vector<std::string>& players) override {
    std::map<std::string, ratings::SkillRating> known;
    for (const std::string& player : players) {
      if (ratings_.contains(player)) known[player] = ratings_.at(player);
    }
    return known;
  }

 private:
  std::map<std::string, ratings::SkillRating> ratings_;
};

TEST_F(MatchmakerTest, BotsAreChosenByTheSkillOfThePlayersTheyFillInFor) {
  const std::vector<std::string> tokens = Players(2);
  FixedRatings fixed({{"p0", {.mu = 12, .sigma = 3}}});  // p0 lost a lot; p1 is new (25)
  auto bot_kinds = [&](const std::string& token) {
    const v1::Ticket ticket = Queue(token, "queues/forty-two");
    Matchmaker matchmaker(*store_, *creator_, {.ratings = &fixed});
    absl::StatusOr<PassReport> report = matchmaker.RunPass(absl::Now() + absl::Seconds(61));
    EXPECT_TRUE(report.ok() && report->created == 1) << report.status();
    const v1::Ticket seen = Ticket(token, ticket.name());
    std::set<std::string> kinds;
    if (seen.assignments().empty()) return kinds;
    const v1::Match match = GetMatch(seen.assignments(0).match());
    for (const v1::Seat& seat : match.seats()) {
      if (seat.has_bot()) kinds.insert(seat.bot().kind());
    }
    return kinds;
  };
  EXPECT_THAT(bot_kinds(tokens[0]), ElementsAre("random"));
  EXPECT_THAT(bot_kinds(tokens[1]), ElementsAre("heuristic"));  // Forty-Two's own bot
}

TEST_F(MatchmakerTest, RecentPartnersAreKeptApartWhenTheTeamsAreAsEvenEitherWay) {
  // Four new players, so every split is as even as every other: three tables in a row seat
  // each of the six pairs as partners once.
  const std::vector<std::string> tokens = Players(4);
  std::set<std::pair<std::string, std::string>> partnerships;
  for (int round = 0; round < 3; ++round) {
    std::vector<v1::Ticket> tickets;
    for (const std::string& token : tokens) tickets.push_back(Queue(token, "queues/forty-two"));
    ASSERT_EQ(Pass(*creator_).created, 1) << "round " << round;
    std::map<int, std::vector<std::string>> teams;
    for (size_t i = 0; i < tokens.size(); ++i) {
      const v1::Ticket seen = Ticket(tokens[i], tickets[i].name());
      ASSERT_EQ(seen.assignments_size(), 1);
      teams[seen.assignments(0).team()].push_back(seen.players(0));
    }
    ASSERT_EQ(teams.size(), 2u);
    for (const auto& [team, members] : teams) {
      ASSERT_EQ(members.size(), 2u);
      const auto pair = std::minmax(members[0], members[1]);
      EXPECT_TRUE(partnerships.insert({pair.first, pair.second}).second)
          << "round " << round << " partners " << pair.first << " and " << pair.second
          << " again";
    }
  }
  EXPECT_EQ(partnerships.size(), 6u);
}

// A pass writes FORMING and then MATCHED with the same time: the watch still sees MATCHED,
// with its seat.
TEST_F(MatchmakerTest, AWatcherSeesItsTicketMatched) {
  const std::vector<std::string> tokens = Players(2);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  Queue(tokens[1], "queues/muggins");
  auto context = Context(tokens[0]);
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::WatchTicketRequest request;
  request.set_name(ann.name());
  auto reader = stub_->WatchTicket(context.get(), request);
  v1::TicketUpdate update;
  ASSERT_TRUE(reader->Read(&update));
  EXPECT_EQ(update.ticket().state(), v1::Ticket::SEARCHING);
  ASSERT_EQ(Pass(*creator_).created, 1);
  while (reader->Read(&update) && update.ticket().state() == v1::Ticket::SEARCHING) {
  }
  EXPECT_EQ(update.ticket().state(), v1::Ticket::MATCHED);
  ASSERT_EQ(update.ticket().assignments_size(), 1);
  EXPECT_FALSE(update.ticket().assignments(0).seat_token().empty());
  EXPECT_TRUE(reader->Finish().ok());
}

TEST_F(MatchmakerTest, ATicketPastTheQueuesMaxWaitExpires) {
  const std::vector<std::string> tokens = Players(1);
  const v1::Ticket ticket = Queue(tokens[0], "queues/muggins");
  EXPECT_EQ(Pass(*creator_).expired, 0);
  EXPECT_EQ(Pass(*creator_, absl::Now() + absl::Seconds(31)).expired, 1);
  EXPECT_EQ(Ticket(tokens[0], ticket.name()).state(), v1::Ticket::EXPIRED);
  Queue(tokens[0], "queues/muggins");  // free to queue again
}

TEST_F(MatchmakerTest, WhileExecutionIsDownTheMatchWaitsAndIsCreatedOnceItIsBack) {
  const int before = ExecutionMatches();
  const std::vector<std::string> tokens = Players(2);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  Queue(tokens[1], "queues/muggins");
  absl::StatusOr<int> port = testing::PickFreePort();
  ASSERT_TRUE(port.ok());
  ExecutionCreator down(absl::StrCat("127.0.0.1:", *port), execution_->operator_token(),
                        absl::Milliseconds(500));
  PassReport report = Pass(down);
  EXPECT_EQ(report.claimed, 1);
  EXPECT_EQ(report.retry, 1);
  EXPECT_EQ(report.created, 0);
  // Claimed: still SEARCHING to the player, but no longer cancellable, and in no other match.
  EXPECT_EQ(Ticket(tokens[0], ann.name()).state(), v1::Ticket::SEARCHING);
  v1::CancelTicketRequest cancel;
  cancel.set_name(ann.name());
  v1::Ticket ignored;
  grpc::Status status = stub_->CancelTicket(Context(tokens[0]).get(), cancel, &ignored);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("being seated"));
  EXPECT_EQ(Pass(down).claimed, 0);

  report = Pass(*creator_);  // a later pass (a new matchmaker, as after a restart)
  EXPECT_EQ(report.created, 1);
  EXPECT_EQ(Ticket(tokens[0], ann.name()).state(), v1::Ticket::MATCHED);
  ExpectNoTicketInTwoMatches(before);
}

TEST_F(MatchmakerTest, AnAnswerLostAfterCreationCanOnlyEverGiveTheSameMatch) {
  const int before = ExecutionMatches();
  const std::vector<std::string> tokens = Players(4);
  for (const std::string& token : tokens) Queue(token, "queues/forty-two");
  LosesAnswers lossy(*creator_);
  EXPECT_EQ(Pass(lossy).retry, 1);
  EXPECT_EQ(Pass(lossy).retry, 1);  // sent again, answer lost again
  EXPECT_EQ(ExecutionMatches() - before, 1);
  EXPECT_EQ(Pass(*creator_).created, 1);
  EXPECT_EQ(ExecutionMatches() - before, 1);
  ExpectNoTicketInTwoMatches(before);
}

TEST_F(MatchmakerTest, ConcurrentCancelsNeverLeaveATicketInAMatch) {
  const int before = ExecutionMatches();
  constexpr int kPlayers = 40;
  const std::vector<std::string> tokens = Players(kPlayers);
  std::vector<v1::Ticket> tickets;
  for (const std::string& token : tokens) tickets.push_back(Queue(token, "queues/muggins"));
  // Every other player cancels while passes run; a cancel either wins (its ticket is in no
  // match) or is refused because the ticket was claimed first.
  std::atomic<int> cancelled = 0;
  std::thread canceller([&] {
    for (int i = 0; i < kPlayers; i += 2) {
      v1::CancelTicketRequest request;
      request.set_name(tickets[i].name());
      v1::Ticket answer;
      grpc::Status status = stub_->CancelTicket(Context(tokens[i]).get(), request, &answer);
      if (status.ok()) {
        ++cancelled;
      } else {
        EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << i;
      }
    }
  });
  for (int pass = 0; pass < 5; ++pass) Pass(*creator_);
  canceller.join();
  Pass(*creator_);
  EXPECT_EQ(Count(T("tickets") + " WHERE state = 3"), cancelled.load());
  EXPECT_EQ(Count(T("tickets") + " WHERE state = 2") + cancelled.load() +
                Count(T("tickets") + " WHERE state = 1"),
            kPlayers);
  EXPECT_LE(Count(T("tickets") + " WHERE state = 1"), 1);  // an odd one out may wait
  ExpectNoTicketInTwoMatches(before);
}

TEST_F(MatchmakerTest, TwoMatchmakersAtOnceNeverPutATicketInTwoMatches) {
  const int before = ExecutionMatches();
  // A second store on a pool of its own: what a second matchmaking process would have.
  const char* url = std::getenv(kUrlVariable);
  absl::StatusOr<std::unique_ptr<PgPool>> other_pool = PgPool::Connect(url, 4);
  ASSERT_TRUE(other_pool.ok());
  absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> other_store =
      PgMatchmakingStore::Open(**other_pool, schema_);
  ASSERT_TRUE(other_store.ok());
  ExecutionCreator other_creator(execution_->target(), execution_->operator_token());

  constexpr int kPlayers = 48;
  const std::vector<std::string> tokens = Players(kPlayers);
  PassReport mine_total, theirs_total;
  auto run = [&](PgMatchmakingStore& store, MatchCreator& creator, PassReport& total) {
    Matchmaker matchmaker(store, creator);
    for (int pass = 0; pass < 15; ++pass) {
      absl::StatusOr<PassReport> report = matchmaker.RunPass(absl::Now());
      ASSERT_TRUE(report.ok()) << report.status();
      total.claimed += report->claimed;
      total.lost += report->lost;
      total.created += report->created;
    }
  };
  std::thread theirs([&] { run(**other_store, other_creator, theirs_total); });
  for (int i = 0; i < kPlayers; ++i) {
    // Mixed: duels and Forty-Two tables fill while both pass.
    Queue(tokens[i], i % 3 == 0 ? "queues/muggins" : "queues/forty-two");
  }
  run(*store_, *creator_, mine_total);
  theirs.join();
  Pass(*creator_);  // whatever is left pending
  EXPECT_EQ(Count(T("tickets") + " WHERE state = 2"), kPlayers);
  ExpectNoTicketInTwoMatches(before);
  EXPECT_GT(mine_total.claimed + theirs_total.claimed, 0);
  // One pass per queue at a time (ClaimQueues): neither formed a match from tickets the other
  // was claiming, so no claim was lost.
  EXPECT_EQ(mine_total.lost + theirs_total.lost, 0);
}

TEST_F(MatchmakerTest, AQueueAnotherProcessIsPassingOverIsLeftToIt) {
  const char* url = std::getenv(kUrlVariable);
  absl::StatusOr<std::unique_ptr<PgPool>> other_pool = PgPool::Connect(url, 2);
  ASSERT_TRUE(other_pool.ok());
  absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> other_store =
      PgMatchmakingStore::Open(**other_pool, schema_);
  ASSERT_TRUE(other_store.ok());
  absl::StatusOr<std::vector<QueueRow>> queues = store_->ListQueues("", "", 1000);
  ASSERT_TRUE(queues.ok());
  std::vector<std::string> ids;
  for (const QueueRow& queue : *queues) ids.push_back(queue.queue_id);
  ASSERT_FALSE(ids.empty());

  const std::vector<std::string> tokens = Players(2);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  Queue(tokens[1], "queues/muggins");
  {
    // The other process holds every queue for its pass: this one's pass leaves them all.
    absl::StatusOr<std::unique_ptr<PgMatchmakingStore::QueueClaim>> theirs =
        (*other_store)->ClaimQueues(ids);
    ASSERT_TRUE(theirs.ok()) << theirs.status();
    EXPECT_EQ((*theirs)->queues().size(), ids.size());
    absl::StatusOr<std::unique_ptr<PgMatchmakingStore::QueueClaim>> mine = store_->ClaimQueues(ids);
    ASSERT_TRUE(mine.ok()) << mine.status();
    EXPECT_THAT((*mine)->queues(), ::testing::IsEmpty());
    mine->reset();
    const PassReport report = Pass(*creator_);
    EXPECT_EQ(report.queues, 0);
    EXPECT_EQ(report.formed, 0);
    EXPECT_EQ(Ticket(tokens[0], ann.name()).state(), v1::Ticket::SEARCHING);
  }
  // Its pass over, the queues are anyone's again.
  const PassReport report = Pass(*creator_);
  EXPECT_EQ(report.queues, static_cast<int>(ids.size()));
  EXPECT_EQ(report.formed, 1);
  EXPECT_EQ(Ticket(tokens[0], ann.name()).state(), v1::Ticket::MATCHED);
}

TEST_F(MatchmakerTest, ANewTicketWakesTheMatchmakerBeforeItsInterval) {
  // A pass an hour: only a wake can form this match within the test.
  std::unique_ptr<Matchmaker> matchmaker;
  on_ticket_ = [&matchmaker] { matchmaker->Wake(); };
  Start(/*open_registration=*/false);  // the logic again (same schema), with the callback
  matchmaker = std::make_unique<Matchmaker>(*store_, *creator_,
                                            MatchmakerOptions{.interval = absl::Hours(1)});
  matchmaker->Start();
  absl::SleepFor(absl::Milliseconds(200));  // the first pass (at once) has found nothing
  const std::vector<std::string> tokens = Players(2);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  Queue(tokens[1], "queues/muggins");
  v1::Ticket::State state = v1::Ticket::SEARCHING;
  for (int i = 0; i < 200 && state != v1::Ticket::MATCHED; ++i) {
    absl::SleepFor(absl::Milliseconds(50));
    state = Ticket(tokens[0], ann.name()).state();
  }
  EXPECT_EQ(state, v1::Ticket::MATCHED);
  matchmaker->Stop();
}

// ----- The claim itself, interleaved by hand (the passes above race it only by chance) -----

// A formed match of `tickets` (ids), seated in order, as a pass would record it.
FormedMatchRow Formed(const std::vector<v1::Ticket>& tickets) {
  FormedMatchRow row{.request_id = "",
                     .queue_id = "muggins",
                     .game = "muggins",
                     .request = "request",
                     .tickets = {},
                     .seatings = {},
                     .create_time = absl::Now()};
  for (const v1::Ticket& ticket : tickets) {
    row.tickets.push_back(ticket.name().substr(std::string("tickets/").size()));
  }
  row.request_id = FormedMatchRequestId(row.tickets);
  for (size_t seat = 0; seat < row.tickets.size(); ++seat) {
    row.seatings.push_back({.request_id = row.request_id,
                            .seat = static_cast<int>(seat),
                            .ticket_id = row.tickets[seat],
                            .player_id = tickets[seat].players(0).substr(8),
                            .team = -1,
                            .win_chance = 0.5,
                            .bots = 0,
                            .seat_token = "",
                            .match_name = "",
                            .execution_target = ""});
  }
  return row;
}

TEST_F(MatchmakerTest, AClaimIsAllOrNothing) {
  const std::vector<std::string> tokens = Players(2);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  const v1::Ticket bob = Queue(tokens[1], "queues/muggins");
  // Read by a pass, then Bob cancels before the claim.
  v1::CancelTicketRequest cancel;
  cancel.set_name(bob.name());
  v1::Ticket ignored;
  ASSERT_TRUE(stub_->CancelTicket(Context(tokens[1]).get(), cancel, &ignored).ok());
  EXPECT_TRUE(absl::IsAborted(store_->ClaimMatch(Formed({ann, bob}))));
  EXPECT_EQ(Ticket(tokens[0], ann.name()).state(), v1::Ticket::SEARCHING);
  EXPECT_EQ(Count(T("tickets") + " WHERE state = 5"), 0);  // Ann is not left claimed
  EXPECT_EQ(Count(T("formed_matches")), 0);
  EXPECT_EQ(Count(T("seatings")), 0);
}

TEST_F(MatchmakerTest, ATicketClaimedOnceCannotBeClaimedAgain) {
  const std::vector<std::string> tokens = Players(3);
  const v1::Ticket ann = Queue(tokens[0], "queues/muggins");
  const v1::Ticket bob = Queue(tokens[1], "queues/muggins");
  const v1::Ticket cat = Queue(tokens[2], "queues/muggins");
  ASSERT_TRUE(store_->ClaimMatch(Formed({ann, bob})).ok());
  // Another pass (or process) read the same tickets and formed Ann with Cat.
  EXPECT_TRUE(absl::IsAborted(store_->ClaimMatch(Formed({cat, ann}))));
  EXPECT_EQ(Count(T("tickets") + " WHERE state = 1"), 1);  // Cat searches on
  EXPECT_EQ(Count(T("formed_matches")), 1);
}

TEST_F(MatchmakerTest, APassesClaimsAreOneTransactionButEachMatchStandsAlone) {
  const std::vector<std::string> tokens = Players(7);
  std::vector<v1::Ticket> t;
  for (const std::string& token : tokens) t.push_back(Queue(token, "queues/muggins"));
  v1::CancelTicketRequest cancel;
  cancel.set_name(t[3].name());
  v1::Ticket ignored;
  ASSERT_TRUE(stub_->CancelTicket(Context(tokens[3]).get(), cancel, &ignored).ok());
  // The second match has a cancelled ticket; the fourth reuses one the first claims.
  absl::StatusOr<std::vector<bool>> claimed = store_->ClaimMatches(
      {Formed({t[0], t[1]}), Formed({t[2], t[3]}), Formed({t[4], t[5]}), Formed({t[1], t[6]})});
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_THAT(*claimed, ElementsAre(true, false, true, false));
  EXPECT_EQ(Count(T("formed_matches")), 2);
  EXPECT_EQ(Count(T("seatings")), 4);
  EXPECT_EQ(Count(T("tickets") + " WHERE state = 5"), 4);  // FORMING: t0, t1, t4, t5
  EXPECT_EQ(Ticket(tokens[2], t[2].name()).state(), v1::Ticket::SEARCHING);
  EXPECT_EQ(Ticket(tokens[6], t[6].name()).state(), v1::Ticket::SEARCHING);
}

TEST_F(MatchmakerTest, APassIsCountedInTheMetrics) {
  const std::vector<std::string> tokens = Players(3);
  for (const std::string& token : tokens) Queue(token, "queues/muggins");
  prometheus::Registry registry;
  MatchmakerMetrics metrics(registry);
  Matchmaker matchmaker(*store_, *creator_, {.metrics = &metrics});
  const absl::Time now = absl::Now() + absl::Seconds(5);
  ASSERT_TRUE(matchmaker.RunPass(now).ok());
  // Name and labels → value, of every sample (histograms by their count).
  std::map<std::string, double> values;
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    for (const prometheus::ClientMetric& metric : family.metric) {
      std::string key = family.name;
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        absl::StrAppend(&key, ",", label.name, "=", label.value);
      }
      values[key] = family.type == prometheus::MetricType::Histogram
                        ? static_cast<double>(metric.histogram.sample_count)
                        : metric.counter.value + metric.gauge.value;
    }
  }
  EXPECT_EQ(values["boneyard_matchmaker_passes_total"], 1);
  EXPECT_EQ(values["boneyard_matchmaker_matches_total,outcome=formed,queue=muggins"], 1);
  EXPECT_EQ(values["boneyard_matchmaker_matches_total,outcome=claimed,queue=muggins"], 1);
  EXPECT_EQ(values["boneyard_matchmaker_matches_total,outcome=created,queue=muggins"], 1);
  // Read before the pass matched: three searching, the oldest from before `now`.
  EXPECT_EQ(values["boneyard_matchmaker_tickets_searching,queue=muggins"], 3);
  EXPECT_GE(values["boneyard_matchmaker_oldest_wait_seconds,queue=muggins"], 5);
  EXPECT_EQ(values["boneyard_matchmaker_tickets_searching,queue=forty-two"], 0);
  EXPECT_EQ(values["boneyard_matchmaker_ticket_wait_seconds,queue=muggins"], 2);
  EXPECT_EQ(values["boneyard_matchmaker_win_chance,queue=muggins"], 1);
  EXPECT_EQ(values["boneyard_matchmaker_pass_seconds,phase=total"], 1);
  // A deleted queue's gauges go with it.
  v1::DeleteQueueRequest remove;
  remove.set_name("queues/forty-two");
  google::protobuf::Empty empty;
  ASSERT_TRUE(stub_->DeleteQueue(Context(kOperatorToken).get(), remove, &empty).ok());
  ASSERT_TRUE(matchmaker.RunPass(now).ok());
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    for (const prometheus::ClientMetric& metric : family.metric) {
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        if (family.name == "boneyard_matchmaker_tickets_searching") {
          EXPECT_NE(label.value, "forty-two");
        }
      }
    }
  }
}

TEST_F(MatchmakerTest, OfClaimsRacingForOneTicketExactlyOneWins) {
  constexpr int kRounds = 20;
  const std::vector<std::string> tokens = Players(3 * kRounds);
  for (int round = 0; round < kRounds; ++round) {
    const v1::Ticket shared = Queue(tokens[3 * round], "queues/muggins");
    const v1::Ticket left = Queue(tokens[3 * round + 1], "queues/muggins");
    const v1::Ticket right = Queue(tokens[3 * round + 2], "queues/muggins");
    absl::Status a, b;
    std::thread other([&] { a = store_->ClaimMatch(Formed({shared, left})); });
    b = store_->ClaimMatch(Formed({shared, right}));
    other.join();
    EXPECT_NE(a.ok(), b.ok()) << round << ": " << a << " / " << b;
  }
  EXPECT_EQ(Count(T("formed_matches")), kRounds);
  EXPECT_EQ(Count("(SELECT ticket_id FROM " + T("seatings") +
                  " GROUP BY ticket_id HAVING count(*) > 1) x"),
            0);
}

// ----- Results from execution's outbox ------------------------------------------------------

TEST_F(MatchmakerTest, ResultsComeBackFromExecutionsOutboxIntoThePlayersHistories) {
  // An execution of its own (on a database of its own) that delivers results here, and to no
  // ratings service; a clock ends the duel at once: the first to move forfeits.
  absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  const std::string token_file = execution_->dir() + "/results_token";
  {
    std::ofstream out(token_file);
    out << kResultsToken;
  }
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> delivering =
      testing::ServiceProcess::Start(
          BONEYARD_EXECUTION_BINARY,
          {"--database_url=" + (*db)->url(),
           absl::StrCat("--matchmaking_target=127.0.0.1:", server_->port()),
           "--results_token_file=" + token_file});
  ASSERT_TRUE(delivering.ok()) << delivering.status();
  ExecutionCreator creator((*delivering)->target(), (*delivering)->operator_token());
  v1::Queue casual = FortyTwoQueue();
  casual.set_game("muggins");
  casual.set_display_name("Muggins, casual, on the clock");
  casual.clear_rules();
  casual.set_rated(false);
  casual.mutable_format()->mutable_head_to_head();
  casual.mutable_clock()->mutable_per_move()->set_nanos(50'000'000);
  casual.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
  v1::Queue created;
  ASSERT_TRUE(CreateQueue("blitz", casual, &created).ok());
  const std::vector<std::string> tokens = Players(2);
  Queue(tokens[0], "queues/blitz");
  Queue(tokens[1], "queues/blitz");
  ASSERT_EQ(Pass(creator).created, 1);

  v1::ListPlayerMatchesRequest request;
  request.set_name("players/p0");
  v1::ListPlayerMatchesResponse history;
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  do {
    absl::SleepFor(absl::Milliseconds(50));
    ASSERT_TRUE(stub_->ListPlayerMatches(Context().get(), request, &history).ok());
  } while (absl::Now() < deadline &&
           (history.matches_size() == 0 || !history.matches(0).has_result()));
  ASSERT_EQ(history.matches_size(), 1);
  ASSERT_TRUE(history.matches(0).has_result()) << (*delivering)->log();
  EXPECT_TRUE(history.matches(0).has_end_time());
  EXPECT_EQ(history.matches(0).result().ranks_size(), 2);
  // A casual match: its result went to matchmaking alone, never to ratings.
  absl::StatusOr<std::unique_ptr<PgPool>> exec_pool = PgPool::Connect((*db)->url(), 1);
  ASSERT_TRUE(exec_pool.ok()) << exec_pool.status();
  absl::StatusOr<std::string> receivers = (*exec_pool)->Run([](pqxx::work& tx) {
    std::string out;
    for (const pqxx::row& row : tx.exec("SELECT receiver FROM exec.outbox ORDER BY receiver")) {
      out += row[0].as<std::string>() + " ";
    }
    return out;
  });
  ASSERT_TRUE(receivers.ok()) << receivers.status();
  EXPECT_EQ(*receivers, "matchmaking ");
  ASSERT_TRUE((*delivering)->Stop().ok()) << (*delivering)->log();
}

TEST_F(MatchmakerTest, RecordMatchResultIsIdempotentAndRefusesWhatIsNotItsOwn) {
  const std::vector<std::string> tokens = Players(2);
  Queue(tokens[0], "queues/muggins");
  Queue(tokens[1], "queues/muggins");
  ASSERT_EQ(Pass(*creator_).created, 1);
  v1::ListPlayerMatchesRequest list;
  list.set_name("players/p0");
  v1::ListPlayerMatchesResponse history;
  ASSERT_TRUE(stub_->ListPlayerMatches(Context().get(), list, &history).ok());
  ASSERT_EQ(history.matches_size(), 1);

  v1::RecordMatchResultRequest request;
  v1::Match& match = *request.mutable_match();
  match.set_name(history.matches(0).match());
  match.set_state(v1::Match::FINISHED);
  match.mutable_result()->add_ranks(1);
  match.mutable_result()->add_ranks(2);
  match.mutable_result()->add_scores(61);
  match.mutable_result()->add_scores(40);
  *match.mutable_end_time() = ToTimestamp(absl::Now());
  auto record = [&](std::optional<std::string> token, const v1::RecordMatchResultRequest& r,
                    v1::RecordMatchResultResponse* response) {
    return stub_->RecordMatchResult(Context(token).get(), r, response);
  };
  v1::RecordMatchResultResponse response;
  EXPECT_EQ(record(std::nullopt, request, &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(record(kOperatorToken, request, &response).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(record(tokens[0], request, &response).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(record("not-a-token-of-anyone", request, &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::RecordMatchResultRequest bad = request;
  bad.mutable_match()->set_name("m1");
  ExpectRefused(record(kResultsToken, bad, &response), "match.name", "a bare name");
  bad = request;
  bad.mutable_match()->set_state(v1::Match::ACTIVE);
  ExpectRefused(record(kResultsToken, bad, &response), "match", "not finished");
  bad = request;
  bad.mutable_match()->clear_end_time();
  ExpectRefused(record(kResultsToken, bad, &response), "match.end_time", "no end");
  bad = request;
  bad.mutable_match()->set_name("matches/formed-elsewhere");
  EXPECT_EQ(record(kResultsToken, bad, &response).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(stub_->ListPlayerMatches(Context().get(), list, &history).ok());
  EXPECT_FALSE(history.matches(0).has_result());  // nothing changed so far

  ASSERT_TRUE(record(kResultsToken, request, &response).ok());
  EXPECT_FALSE(response.already_recorded());
  ASSERT_TRUE(record(kResultsToken, request, &response).ok());
  EXPECT_TRUE(response.already_recorded());
  bad = request;
  bad.mutable_match()->mutable_result()->set_scores(0, 7);
  EXPECT_EQ(record(kResultsToken, bad, &response).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  list.set_name("players/p1");
  ASSERT_TRUE(stub_->ListPlayerMatches(Context().get(), list, &history).ok());
  ASSERT_EQ(history.matches_size(), 1);
  EXPECT_THAT(history.matches(0).result().scores(), ElementsAre(61, 40));
}

// ----- Ratings from the ratings service -----------------------------------------------------

// A Muggins duel `winner` won, as execution's outbox would deliver it.
v1::Match Duel(const std::string& id, const std::string& winner, const std::string& loser) {
  v1::Match match;
  match.set_name(absl::StrCat("matches/", id));
  match.set_game("muggins");
  match.set_state(v1::Match::FINISHED);
  for (const std::string& player : {winner, loser}) {
    match.add_seats()->mutable_player()->set_player_id(player);
    match.mutable_result()->add_player_ids(player);
  }
  match.mutable_result()->add_ranks(1);
  match.mutable_result()->add_ranks(2);
  match.mutable_result()->add_scores(61);
  match.mutable_result()->add_scores(40);
  const absl::Time end = absl::Now();
  *match.mutable_create_time() = ToTimestamp(end - absl::Minutes(10));
  *match.mutable_update_time() = ToTimestamp(end);
  *match.mutable_end_time() = ToTimestamp(end);
  return match;
}

TEST_F(MatchmakerTest, TeamsAreSplitByTheRatingsServicesRatingsAndMatchingGoesOnWithoutIt) {
  absl::StatusOr<std::unique_ptr<testing::TestDatabase>> db = testing::TestDatabase::Create();
  ASSERT_TRUE(db.ok()) << db.status();
  const std::string token_file = execution_->dir() + "/ratings_results_token";
  {
    std::ofstream out(token_file);
    out << kResultsToken;
  }
  absl::StatusOr<std::unique_ptr<testing::ServiceProcess>> ratings =
      testing::ServiceProcess::Start(
          BONEYARD_RATINGS_BINARY,
          {"--database_url=" + (*db)->url(), "--results_token_file=" + token_file});
  ASSERT_TRUE(ratings.ok()) << ratings.status();
  // p0 beats everyone, p3 loses to everyone: p0 strongest, p3 weakest, p1 and p2 between.
  auto ratings_stub = v1::RatingsService::NewStub(
      grpc::CreateChannel((*ratings)->target(), grpc::InsecureChannelCredentials()));
  int id = 0;
  for (int round = 0; round < 4; ++round) {
    for (const auto& [winner, loser] : std::vector<std::pair<std::string, std::string>>{
             {"p0", "p1"}, {"p0", "p2"}, {"p0", "p3"}, {"p1", "p3"}, {"p2", "p3"}}) {
      v1::RecordResultRequest request;
      *request.mutable_match() = Duel(absl::StrCat("m", id++), winner, loser);
      v1::RecordResultResponse response;
      grpc::Status status =
          ratings_stub->RecordResult(Context(kResultsToken).get(), request, &response);
      ASSERT_TRUE(status.ok()) << status.error_message();
    }
  }

  v1::Queue pairs = FortyTwoQueue();
  pairs.set_game("muggins");
  pairs.set_display_name("Muggins in partnerships");
  pairs.clear_rules();
  (*pairs.mutable_rules())["players"].set_int_value(4);
  (*pairs.mutable_rules())["teams"].set_bool_value(true);
  pairs.mutable_window()->set_initial(25);
  v1::Queue created;
  ASSERT_TRUE(CreateQueue("pairs", pairs, &created).ok());
  const std::vector<std::string> tokens = Players(8);
  std::vector<v1::Ticket> tickets;
  for (int i = 0; i < 4; ++i) tickets.push_back(Queue(tokens[i], "queues/pairs"));

  RatingsFetcher fetcher((*ratings)->target(), absl::Milliseconds(500));
  RatingCache cache(fetcher, absl::ZeroDuration());
  Matchmaker balanced(*store_, *creator_, MatchmakerOptions{.ratings = &cache});
  absl::StatusOr<PassReport> report = balanced.RunPass(absl::Now());
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->created, 1);
  // The strongest partners the weakest: the only split near even.
  const v1::Ticket strongest = Ticket(tokens[0], tickets[0].name());
  const v1::Ticket weakest = Ticket(tokens[3], tickets[3].name());
  ASSERT_EQ(strongest.state(), v1::Ticket::MATCHED);
  EXPECT_EQ(strongest.assignments(0).team(), weakest.assignments(0).team());
  EXPECT_NEAR(strongest.assignments(0).win_chance(), 0.5, 0.1);
  EXPECT_EQ(cache.failed_fetches(), 0);

  // Ratings goes down: the next four (never rated) are still matched, at initial ratings.
  ASSERT_TRUE((*ratings)->Kill(SIGKILL).ok());
  for (int i = 4; i < 8; ++i) Queue(tokens[i], "queues/pairs");
  report = balanced.RunPass(absl::Now());
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->created, 1);
  EXPECT_GE(cache.failed_fetches(), 1);
}

}  // namespace
}  // namespace boneyard::matchmaking
