// Tickets over the matchmaking service's RPCs (matchmaking_test_fixture.h: a real server on
// loopback, a real PostgreSQL), without passes: one live ticket a player, parties queued whole
// by their leader, idempotent creation, who may see and cancel what, the watch stream, and
// every malformed field refused with nothing changed. Matching itself: matchmaker_test.cc.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/matchmaking/matchmaking_test_fixture.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class TicketsTest : public MatchmakingTest {
 protected:
  void SetUp() override {
    MatchmakingTest::SetUp();
    v1::Queue created;
    ASSERT_TRUE(CreateQueue("forty-two", FortyTwoQueue(), &created).ok());
    v1::Queue duel = FortyTwoQueue();
    duel.set_game("muggins");
    duel.set_display_name("Muggins, one on one");
    duel.clear_rules();
    duel.mutable_format()->mutable_head_to_head();
    ASSERT_TRUE(CreateQueue("muggins", duel, &created).ok());
  }

  grpc::Status Queue(const std::string& token, const std::string& queue, v1::Ticket* ticket,
                     const std::string& party = "", const std::string& request_id = "") {
    v1::CreateTicketRequest request;
    request.set_queue(queue);
    request.set_party(party);
    request.set_request_id(request_id);
    return stub_->CreateTicket(Context(token).get(), request, ticket);
  }
  grpc::Status GetTicket(std::optional<std::string> token, const std::string& name,
                         v1::Ticket* ticket) {
    v1::GetTicketRequest request;
    request.set_name(name);
    return stub_->GetTicket(Context(token).get(), request, ticket);
  }
  grpc::Status Cancel(std::optional<std::string> token, const std::string& name,
                      v1::Ticket* ticket) {
    v1::CancelTicketRequest request;
    request.set_name(name);
    return stub_->CancelTicket(Context(token).get(), request, ticket);
  }

  // The tickets and their players, as text, to compare before and after.
  std::string Tickets() {
    absl::StatusOr<std::string> rows = pool_->Run([&](pqxx::work& tx) {
      std::string out;
      for (const pqxx::row& row : tx.exec(
               "SELECT t.ticket_id, t.queue_id, t.party_id, t.state, p.player_id, p.live FROM " +
               tx.quote_name(schema_) + ".tickets t JOIN " + tx.quote_name(schema_) +
               ".ticket_players p USING (ticket_id) ORDER BY t.ticket_id, p.position")) {
        for (const pqxx::field& field : row) absl::StrAppend(&out, field.c_str(), "|");
        out += "\n";
      }
      return out;
    });
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? *rows : "";
  }
};

TEST_F(TicketsTest, APlayerQueuesSeesTheTicketAndCancelsIt) {
  const std::vector<std::string> tokens = Players(2);
  v1::Ticket ticket;
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &ticket).ok());
  EXPECT_THAT(ticket.name(), ::testing::StartsWith("tickets/"));
  EXPECT_EQ(ticket.queue(), "queues/forty-two");
  EXPECT_THAT(ticket.players(), ElementsAre("players/p0"));
  EXPECT_EQ(ticket.state(), v1::Ticket::SEARCHING);
  EXPECT_TRUE(ticket.party().empty());
  EXPECT_TRUE(ticket.assignments().empty());

  v1::Ticket got;
  ASSERT_TRUE(GetTicket(tokens[0], ticket.name(), &got).ok());
  EXPECT_EQ(got.SerializeAsString(), ticket.SerializeAsString());
  ASSERT_TRUE(GetTicket(kOperatorToken, ticket.name(), &got).ok());
  // Somebody else's ticket is not theirs to see or cancel.
  EXPECT_EQ(GetTicket(tokens[1], ticket.name(), &got).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Cancel(tokens[1], ticket.name(), &got).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(GetTicket(std::nullopt, ticket.name(), &got).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);

  ASSERT_TRUE(Cancel(tokens[0], ticket.name(), &got).ok());
  EXPECT_EQ(got.state(), v1::Ticket::CANCELLED);
  // A second cancel returns it unchanged; the player may queue again.
  v1::Ticket again;
  ASSERT_TRUE(Cancel(kOperatorToken, ticket.name(), &again).ok());
  EXPECT_EQ(again.SerializeAsString(), got.SerializeAsString());
  ASSERT_TRUE(Queue(tokens[0], "queues/muggins", &ticket).ok());
}

TEST_F(TicketsTest, OneLiveTicketAPlayerAndTheSecondChangesNothing) {
  const std::vector<std::string> tokens = Players(1);
  v1::Ticket ticket;
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &ticket).ok());
  const std::string before = Tickets();
  v1::Ticket second;
  grpc::Status status = Queue(tokens[0], "queues/muggins", &second);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("players/p0 has a live ticket"));
  EXPECT_EQ(Tickets(), before);
}

TEST_F(TicketsTest, ARequestIdMakesCreationIdempotent) {
  const std::vector<std::string> tokens = Players(2);
  v1::Ticket first;
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &first, "", "req-1").ok());
  v1::Ticket repeat;
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &repeat, "", "req-1").ok());
  EXPECT_EQ(repeat.SerializeAsString(), first.SerializeAsString());
  // The same id for another queue is another request.
  const std::string before = Tickets();
  grpc::Status status = Queue(tokens[0], "queues/muggins", &repeat, "", "req-1");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr(first.name()));
  // Request ids are each player's own: p1 may use "req-1" too.
  ASSERT_TRUE(Queue(tokens[1], "queues/muggins", &repeat, "", "req-1").ok());
  EXPECT_NE(repeat.name(), first.name());
  EXPECT_THAT(Tickets(), HasSubstr(before));
}

TEST_F(TicketsTest, APartyQueuesWholeByItsLeaderOnly) {
  const std::vector<std::string> tokens = Players(4);
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  ASSERT_TRUE(Join(tokens[1], party.invite_code(), &party).ok());

  v1::Ticket ticket;
  EXPECT_TRUE(party.ticket().empty());
  EXPECT_EQ(Queue(tokens[1], "queues/forty-two", &ticket, party.name()).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &ticket, party.name()).ok());
  EXPECT_THAT(ticket.players(), ElementsAre("players/p0", "players/p1"));
  EXPECT_EQ(ticket.party(), party.name());
  // The party names its ticket: how a member finds it.
  ASSERT_TRUE(GetParty(tokens[1], party.name(), &party).ok());
  EXPECT_EQ(party.ticket(), ticket.name());
  // A member sees the party's ticket, and is on it: no ticket of their own meanwhile.
  v1::Ticket got;
  ASSERT_TRUE(GetTicket(tokens[1], ticket.name(), &got).ok());
  EXPECT_EQ(Queue(tokens[1], "queues/muggins", &got).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  // Nobody joins a searching party, and a searching player joins none.
  v1::Party other;
  EXPECT_EQ(Join(tokens[2], party.invite_code(), &other).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Queue(tokens[3], "queues/muggins", &got).ok());
  EXPECT_EQ(CreateParty(tokens[3], &other).error_code(), grpc::StatusCode::FAILED_PRECONDITION);

  // A member who leaves ends the party's ticket.
  ASSERT_TRUE(Leave(tokens[1], party.name(), &party).ok());
  ASSERT_TRUE(GetTicket(tokens[0], ticket.name(), &got).ok());
  EXPECT_EQ(got.state(), v1::Ticket::CANCELLED);
}

TEST_F(TicketsTest, APartyLargerThanTheFormatTakesIsRefused) {
  const std::vector<std::string> tokens = Players(3);
  v1::Party party;
  ASSERT_TRUE(CreateParty(tokens[0], &party).ok());
  ASSERT_TRUE(Join(tokens[1], party.invite_code(), &party).ok());
  v1::Ticket ticket;
  // Head-to-head takes no party of two; Forty-Two's teams of two take one of two, not three.
  grpc::Status status = Queue(tokens[0], "queues/muggins", &ticket, party.name());
  ExpectRefused(status, "party", "a pair in a duel");
  ASSERT_TRUE(Join(tokens[2], party.invite_code(), &party).ok());
  status = Queue(tokens[0], "queues/forty-two", &ticket, party.name());
  ExpectRefused(status, "party", "three in teams of two");
  EXPECT_THAT(status.error_message(), HasSubstr("at most 2"));
  EXPECT_EQ(Tickets(), "");
}

TEST_F(TicketsTest, DeletingAQueueCancelsItsTickets) {
  const std::vector<std::string> tokens = Players(1);
  v1::Ticket ticket;
  ASSERT_TRUE(Queue(tokens[0], "queues/muggins", &ticket).ok());
  v1::DeleteQueueRequest remove;
  remove.set_name("queues/muggins");
  google::protobuf::Empty empty;
  ASSERT_TRUE(stub_->DeleteQueue(Context(kOperatorToken).get(), remove, &empty).ok());
  v1::Ticket got;
  ASSERT_TRUE(GetTicket(tokens[0], ticket.name(), &got).ok());
  EXPECT_EQ(got.state(), v1::Ticket::CANCELLED);
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &got).ok());
}

TEST_F(TicketsTest, WatchShowsTheSearchThenTheEndAndCloses) {
  const std::vector<std::string> tokens = Players(2);
  v1::Ticket ticket;
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &ticket).ok());
  ASSERT_TRUE(Queue(tokens[1], "queues/forty-two", &ticket).ok());  // p1's, watched
  auto context = Context(tokens[1]);
  v1::WatchTicketRequest request;
  request.set_name(ticket.name());
  std::unique_ptr<grpc::ClientReader<v1::TicketUpdate>> reader =
      stub_->WatchTicket(context.get(), request);
  v1::TicketUpdate update;
  ASSERT_TRUE(reader->Read(&update));
  EXPECT_EQ(update.ticket().state(), v1::Ticket::SEARCHING);
  EXPECT_EQ(update.search().queue_size(), 2);
  EXPECT_GE(update.search().window(), 3.0);
  v1::Ticket cancelled;
  ASSERT_TRUE(Cancel(tokens[1], ticket.name(), &cancelled).ok());
  while (reader->Read(&update) && update.ticket().state() == v1::Ticket::SEARCHING) {
  }
  EXPECT_EQ(update.ticket().state(), v1::Ticket::CANCELLED);
  EXPECT_FALSE(update.has_search());
  EXPECT_FALSE(reader->Read(&update));
  EXPECT_TRUE(reader->Finish().ok());

  // Somebody else's ticket is not theirs to watch.
  auto other = Context(tokens[0]);
  reader = stub_->WatchTicket(other.get(), request);
  EXPECT_FALSE(reader->Read(&update));
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::PERMISSION_DENIED);
}

// Watchers wait on the change feed: a change made behind the service's back (as another
// process would make it) still reaches them, progress keeps coming every second, and twenty
// watchers do not each read the database several times a second.
TEST_F(TicketsTest, WatchersFollowTheChangeFeedNotTheDatabase) {
  constexpr int kWatchers = 20;
  const std::vector<std::string> tokens = Players(kWatchers);
  std::vector<v1::Ticket> tickets(kWatchers);
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<grpc::ClientReader<v1::TicketUpdate>>> readers;
  for (int i = 0; i < kWatchers; ++i) {
    ASSERT_TRUE(Queue(tokens[i], "queues/muggins", &tickets[i]).ok());
    contexts.push_back(Context(tokens[i]));
    v1::WatchTicketRequest request;
    request.set_name(tickets[i].name());
    readers.push_back(stub_->WatchTicket(contexts.back().get(), request));
    v1::TicketUpdate first;
    ASSERT_TRUE(readers.back()->Read(&first));
  }
  // The reads of the tickets table while all of them watch for about two seconds, in which
  // each gets two progress messages (PostgreSQL counts a backend's scans when its transaction
  // ends, at most once a second: the figure is a floor, good to a second).
  auto scans = [&] {
    absl::StatusOr<int64_t> n = pool_->Run([&](pqxx::work& tx) {
      return tx
          .exec_params1("SELECT seq_scan + coalesce(idx_scan, 0) FROM pg_stat_user_tables"
                        " WHERE schemaname = $1 AND relname = 'tickets'",
                        schema_)[0]
          .as<int64_t>();
    });
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : 0;
  };
  absl::SleepFor(absl::Milliseconds(1100));  // the registrations' reads are counted
  const int64_t before = scans();
  const absl::Time start = absl::Now();
  for (int i = 0; i < kWatchers; ++i) {
    for (int progress = 0; progress < 2; ++progress) {
      v1::TicketUpdate update;
      ASSERT_TRUE(readers[i]->Read(&update));
      EXPECT_EQ(update.ticket().state(), v1::Ticket::SEARCHING);
      EXPECT_EQ(update.search().queue_size(), kWatchers);
      EXPECT_GE(update.search().waited().seconds(), 1);
    }
  }
  absl::SleepFor(absl::Milliseconds(1100));
  const int64_t during = scans() - before;
  // A rate, not a count: the window is as long as the watchers take to read two messages each,
  // which stretches on a loaded machine, and PostgreSQL's counts lag by up to a second (a count
  // bound of 80 once saw 96). The feed: three statements every 200 ms, two on this table, about
  // 10 reads a second with the matchmaker's passes on top; twenty pollers at 200 ms made over
  // 400 in a ~3.5 s window, over 100 a second; idle, the feed measures 10.
  const double seconds = std::max(1.0, absl::ToDoubleSeconds(absl::Now() - start));
  EXPECT_LT(during / seconds, 60) << "the tickets table was read " << during << " times in "
                                  << seconds << " s";

  // Cancelled in the database directly: every watcher sees it and its stream ends.
  absl::Status cancelled = pool_->Run([&](pqxx::work& tx) {
    tx.exec0("UPDATE " + tx.quote_name(schema_) +
             ".tickets SET state = 3, update_time = now() + interval '1 second'");
    tx.exec0("UPDATE " + tx.quote_name(schema_) + ".ticket_players SET live = false");
  });
  ASSERT_TRUE(cancelled.ok()) << cancelled;
  for (int i = 0; i < kWatchers; ++i) {
    v1::TicketUpdate update;
    while (readers[i]->Read(&update) && update.ticket().state() == v1::Ticket::SEARCHING) {
    }
    EXPECT_EQ(update.ticket().state(), v1::Ticket::CANCELLED) << i;
    EXPECT_TRUE(readers[i]->Finish().ok());
  }
}

TEST_F(TicketsTest, MalformedFieldsAndWrongCallersAreRefusedAndChangeNothing) {
  const std::vector<std::string> tokens = Players(2);
  v1::Ticket ticket;
  ASSERT_TRUE(Queue(tokens[0], "queues/forty-two", &ticket).ok());
  const std::string before = Tickets();
  v1::Ticket got;
  ExpectRefused(Queue(tokens[1], "forty-two", &got), "queue", "a queue without its collection");
  ExpectRefused(Queue(tokens[1], "queues/" + kMegabyte, &got), "queue", "a huge queue name");
  ExpectRefused(Queue(tokens[1], "queues/forty-two", &got, "party-1"), "party", "a bare party");
  ExpectRefused(Queue(tokens[1], "queues/forty-two", &got, "", std::string(129, 'r')),
                "request_id", "a long request id");
  EXPECT_EQ(Queue(tokens[1], "queues/nope", &got).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Queue(tokens[1], "queues/forty-two", &got, "parties/nope").error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Queue(kOperatorToken, "queues/forty-two", &got).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Queue("not-a-token-of-anyone", "queues/forty-two", &got).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  ExpectRefused(GetTicket(tokens[0], "tickets/", &got), "name", "an empty id");
  ExpectRefused(Cancel(tokens[0], "tickets/a\nb", &got), "name", "a control character");
  EXPECT_EQ(GetTicket(tokens[0], "tickets/nope", &got).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Cancel(kOperatorToken, "tickets/nope", &got).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Tickets(), before);
}

TEST_F(TicketsTest, MatchHistoryOfAPlayerWithoutMatchesAndItsErrors) {
  Players(1);
  v1::ListPlayerMatchesRequest request;
  request.set_name("players/p0");
  v1::ListPlayerMatchesResponse response;
  ASSERT_TRUE(stub_->ListPlayerMatches(Context().get(), request, &response).ok());
  EXPECT_EQ(response.matches_size(), 0);
  EXPECT_TRUE(response.next_page_token().empty());
  request.set_name("players/nobody");
  EXPECT_EQ(stub_->ListPlayerMatches(Context().get(), request, &response).error_code(),
            grpc::StatusCode::NOT_FOUND);
  request.set_name("p0");
  ExpectRefused(stub_->ListPlayerMatches(Context().get(), request, &response), "name", "bare");
  request.set_name("players/p0");
  request.set_page_size(-1);
  ExpectRefused(stub_->ListPlayerMatches(Context().get(), request, &response), "page_size",
                "negative");
  request.set_page_size(0);
  request.set_page_token("forged");
  ExpectRefused(stub_->ListPlayerMatches(Context().get(), request, &response), "page_token",
                "forged");
}

// One-player tickets are committed many to a transaction (PgMatchmakingStore::InsertSoloTickets).
// A batch of good and bad requests together: each gets the answer it would get alone, in order,
// and the bad ones change nothing.
TEST_F(TicketsTest, InABatchEachRequestGetsItsOwnAnswerAndTheBadOnesHarmNoOther) {
  const std::vector<std::string> tokens = Players(7);  // p5 and p6 for the failing batch
  v1::Ticket p3_ticket, p4_ticket;
  ASSERT_TRUE(Queue(tokens[3], "queues/muggins", &p3_ticket, "", "req-3").ok());
  ASSERT_TRUE(Queue(tokens[4], "queues/muggins", &p4_ticket).ok());  // p4 searches already
  const std::string before = Tickets();
  auto request = [&](const std::string& token, const std::string& queue,
                     const std::string& request_id, const std::string& ticket_id) {
    return SoloTicketRequest{.token_hash = TokenHash(token),
                             .queue_id = queue,
                             .request_id = request_id,
                             // As CreateTicket digests a request without a party.
                             .digest = absl::StrCat(queue.size(), ":", queue),
                             .ticket_id = ticket_id,
                             .create_time = absl::FromUnixMicros(absl::ToUnixMicros(absl::Now()))};
  };
  const auto batch = store_->InsertSoloTickets({
      request(tokens[0], "muggins", "", "t0"),           // good
      request("not-a-token", "muggins", "", "bad1"),     // unknown token
      request(tokens[1], "no-such-queue", "", "bad2"),   // unknown queue
      request(tokens[1], "forty-two", "req-1", "t1"),    // good
      request(tokens[1], "muggins", "", "bad3"),         // p1's second ticket, in the batch
      request(tokens[4], "forty-two", "", "bad4"),       // p4 searches since before
      request(tokens[3], "muggins", "req-3", "bad5"),    // a repeat: p3's earlier ticket
      request(tokens[3], "forty-two", "req-3", "bad6"),  // req-3 with other parameters
      request(tokens[1], "forty-two", "req-1", "bad7"),  // a repeat of t1, in the batch
      request(tokens[2], "forty-two", "", "t2"),         // good
  });
  // Answered by the batch's own transaction, not by a fallback one at a time.
  ASSERT_TRUE(batch.ok()) << batch.status();
  const std::vector<absl::StatusOr<TicketRow>>& outcomes = *batch;
  ASSERT_EQ(outcomes.size(), 10u);
  ASSERT_TRUE(outcomes[0].ok()) << outcomes[0].status();
  EXPECT_EQ(outcomes[0]->ticket_id, "t0");
  EXPECT_THAT(outcomes[0]->players, ElementsAre("p0"));
  EXPECT_TRUE(absl::IsUnauthenticated(outcomes[1].status())) << outcomes[1].status();
  EXPECT_TRUE(absl::IsNotFound(outcomes[2].status())) << outcomes[2].status();
  EXPECT_THAT(outcomes[2].status().message(), HasSubstr("no-such-queue"));
  ASSERT_TRUE(outcomes[3].ok()) << outcomes[3].status();
  EXPECT_THAT(outcomes[3]->players, ElementsAre("p1"));
  EXPECT_TRUE(absl::IsFailedPrecondition(outcomes[4].status())) << outcomes[4].status();
  EXPECT_THAT(outcomes[4].status().message(), HasSubstr("players/p1 has a live ticket"));
  EXPECT_TRUE(absl::IsFailedPrecondition(outcomes[5].status())) << outcomes[5].status();
  ASSERT_TRUE(outcomes[6].ok()) << outcomes[6].status();
  EXPECT_EQ("tickets/" + outcomes[6]->ticket_id, p3_ticket.name());
  EXPECT_TRUE(absl::IsAlreadyExists(outcomes[7].status())) << outcomes[7].status();
  ASSERT_TRUE(outcomes[8].ok()) << outcomes[8].status();
  EXPECT_EQ(outcomes[8]->ticket_id, "t1");
  ASSERT_TRUE(outcomes[9].ok()) << outcomes[9].status();

  // Stored: exactly the three good ones beside what was there.
  const std::string after = Tickets();
  for (const char* id : {"t0|", "t1|", "t2|"}) EXPECT_THAT(after, HasSubstr(id));
  for (const char* id : {"bad1", "bad2", "bad3", "bad4", "bad5", "bad6", "bad7"}) {
    EXPECT_THAT(after, ::testing::Not(HasSubstr(id)));
  }
  EXPECT_EQ(std::count(after.begin(), after.end(), '\n'),
            std::count(before.begin(), before.end(), '\n') + 3);

  // A batch whose transaction fails (here a ticket id taken already) stores nothing of it and
  // says so, for the caller to take each request alone.
  const auto failed = store_->InsertSoloTickets(
      {request(tokens[5], "muggins", "", "t5"), request(tokens[6], "muggins", "", "t0")});
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(Tickets(), after);
}

// Through the service: many players queue at once, so their tickets share transactions; each
// gets its own ticket, and a player who sends two at once gets exactly one.
TEST_F(TicketsTest, ConcurrentCreationsEachGetTheirOwnTicket) {
  constexpr int kPlayers = 24;
  const std::vector<std::string> tokens = Players(kPlayers);
  std::vector<grpc::Status> statuses(2 * kPlayers);
  std::vector<v1::Ticket> tickets(2 * kPlayers);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2 * kPlayers; ++i) {
    threads.emplace_back([&, i] {
      statuses[i] = Queue(tokens[i % kPlayers], "queues/muggins", &tickets[i]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int player = 0; player < kPlayers; ++player) {
    const grpc::Status& first = statuses[player];
    const grpc::Status& second = statuses[player + kPlayers];
    EXPECT_NE(first.ok(), second.ok()) << "player " << player;
    const grpc::Status& refused = first.ok() ? second : first;
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    const v1::Ticket& ticket = first.ok() ? tickets[player] : tickets[player + kPlayers];
    EXPECT_THAT(ticket.players(), ElementsAre(absl::StrCat("players/p", player)));
  }
  const std::string stored = Tickets();
  EXPECT_EQ(std::count(stored.begin(), stored.end(), '\n'), kPlayers);
}

}  // namespace
}  // namespace boneyard::matchmaking
