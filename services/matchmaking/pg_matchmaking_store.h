// The matchmaking service's store on PostgreSQL with libpqxx (tables:
// services/matchmaking/migrations/). No gRPC. Every method is one transaction through PgPool,
// so libpqxx's exceptions come back as absl::Status codes; nothing here retries.
//
// Every statement names its tables with the schema given to Open (quoted), so one database can
// hold many stores side by side (the tests use a schema each).
#ifndef BONEYARD_SERVICES_MATCHMAKING_PG_MATCHMAKING_STORE_H_
#define BONEYARD_SERVICES_MATCHMAKING_PG_MATCHMAKING_STORE_H_

#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace boneyard::matchmaking {

struct PlayerRow {
  std::string player_id;
  std::string display_name;
  // The display name folded for uniqueness (FoldDisplayName).
  std::string display_key;
  int kind = 0;  // v1.PlayerAccount.Kind
  absl::Time create_time;
};

struct QueueRow {
  std::string queue_id;
  std::string game;
  // The serialized v1.Queue without its name and timestamps.
  std::string settings;
  absl::Time create_time;
  absl::Time update_time;
};

struct PartyRow {
  std::string party_id;
  std::string leader;
  std::string invite_code;
  absl::Time create_time;
  std::vector<std::string> members;  // in the order they joined, the leader's place kept
  std::string latest_ticket;         // the id of its newest ticket; empty before any
};

// A ticket's state as stored: v1.Ticket.State, plus kForming.
inline constexpr int kTicketSearching = 1;
inline constexpr int kTicketMatched = 2;
inline constexpr int kTicketCancelled = 3;
inline constexpr int kTicketExpired = 4;
// Claimed by a formed match whose creation on execution is not yet confirmed: shown as
// SEARCHING, no longer cancellable.
inline constexpr int kTicketForming = 5;

// A player's seat in a formed match.
struct SeatingRow {
  std::string request_id;  // the formed match's
  int seat = 0;
  std::string ticket_id;   // empty for a built-in bot's seat
  std::string player_id;   // empty for a built-in bot's seat
  int team = -1;
  double win_chance = 0;
  int bots = 0;            // the match's seats filled with bots
  std::string seat_token;  // once created
  // Of the formed match, once created.
  std::string match_name;
  std::string execution_target;
};

struct TicketRow {
  std::string ticket_id;
  std::string queue_id;
  std::string party_id;  // empty for a single player
  int state = kTicketSearching;
  std::string match_request;        // the formed match's request id once claimed
  std::vector<std::string> players;  // the leader first
  absl::Time create_time;
  absl::Time update_time;
  // The ticket's players' seats once claimed (by seat; bots' seats are not here).
  std::vector<SeatingRow> seatings;
};

// The message of CreateTicket's ALREADY_EXISTS for a request_id used with other parameters.
inline constexpr char kRequestIdReused[] = "request_id: used before with other parameters";

// CreateTicket for one player (no party), known by their token's hash until the store finds
// whose it is: what InsertSoloTickets takes, many at once.
struct SoloTicketRequest {
  std::string token_hash;
  std::string queue_id;
  std::string request_id;  // empty: none
  std::string digest;      // what a repeat of the request_id must match
  std::string ticket_id;   // the new ticket's id, when one is made
  absl::Time create_time;
};

// A formed match execution created: what RecordCreatedMany takes.
struct CreatedRecord {
  std::string request_id;
  std::string match_name;
  std::string execution_target;
  std::vector<std::string> seat_tokens;  // by seat; "" for bots
  absl::Time now;
};

// A match a pass formed, with every seat (bots' too).
struct FormedMatchRow {
  std::string request_id;
  std::string queue_id;
  std::string game;
  std::string request;  // a serialized v1.CreateMatchRequest
  std::vector<std::string> tickets;
  std::vector<SeatingRow> seatings;
  absl::Time create_time;
};

// A player's match, for their history.
struct PlayerMatchRow {
  SeatingRow seating;
  std::string queue_id;
  std::string game;
  absl::Time create_time;
  // Once execution delivered it: a serialized v1.MatchResult and the match's end.
  std::string result;
  std::optional<absl::Time> end_time;
};

class PgMatchmakingStore {
 public:
  // Applies the matchmaking migrations to `schema` (creating it if needed) and returns a store
  // over `pool`, which must outlive it.
  static absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> Open(PgPool& pool,
                                                                  const std::string& schema);

  // Adds a player with the hash of their token. ALREADY_EXISTS saying which is taken: the
  // player id, or the display name (its folded key).
  absl::Status InsertPlayer(const PlayerRow& player, const std::string& token_hash);
  // The player, or nullopt.
  absl::StatusOr<std::optional<PlayerRow>> GetPlayer(const std::string& player_id);
  // Up to `limit` players after `after_id` (exclusive; empty: from the first) by id; `kind` 0
  // means every kind.
  absl::StatusOr<std::vector<PlayerRow>> ListPlayers(int kind, const std::string& after_id,
                                                     int limit);
  // Replaces a player's token hash and returns the player. NOT_FOUND when there is no such
  // player.
  absl::StatusOr<PlayerRow> SetTokenHash(const std::string& player_id,
                                         const std::string& token_hash);
  // The id of the player whose token hashes to `token_hash`, or nullopt.
  absl::StatusOr<std::optional<std::string>> PlayerWithTokenHash(const std::string& token_hash);

  // Adds a queue. ALREADY_EXISTS when its id is taken.
  absl::Status InsertQueue(const QueueRow& queue);
  // The queue, or nullopt.
  absl::StatusOr<std::optional<QueueRow>> GetQueue(const std::string& queue_id);
  // Up to `limit` queues after `after_id` by id; `game` empty means every game.
  absl::StatusOr<std::vector<QueueRow>> ListQueues(const std::string& game,
                                                   const std::string& after_id, int limit);
  // Replaces a queue's settings and update time if it is still as read (its update time is
  // `read_update_time`): NOT_FOUND when there is no such queue, ABORTED when it changed
  // meanwhile (read it again and retry).
  absl::Status UpdateQueue(const std::string& queue_id, const std::string& settings,
                           absl::Time read_update_time, absl::Time update_time);
  // NOT_FOUND when there is no such queue. Its SEARCHING tickets are cancelled.
  absl::Status DeleteQueue(const std::string& queue_id);

  // Creates a party whose first member is its leader. FAILED_PRECONDITION when the leader is
  // in a party already or has a live ticket.
  absl::Status CreateParty(const PartyRow& party);
  // Adds `player_id` to the party with `invite_code`, which holds at most `max_members`, and
  // returns the party as it is then: NOT_FOUND for no such code, FAILED_PRECONDITION when the
  // player is in a party already or has a live ticket, the party has one or is full.
  absl::StatusOr<PartyRow> JoinParty(const std::string& invite_code,
                                     const std::string& player_id, int max_members);
  // Removes `player_id` from the party and returns the party as it is then: a leader who
  // leaves is followed by the longest-standing member; the last member's leaving ends the party
  // (returned with no leader and no members). The party's SEARCHING ticket is cancelled.
  // NOT_FOUND for no such party, FAILED_PRECONDITION when the player is not a member.
  absl::StatusOr<PartyRow> LeaveParty(const std::string& party_id, const std::string& player_id);
  // The party, or nullopt (also once it ended).
  absl::StatusOr<std::optional<PartyRow>> GetParty(const std::string& party_id);

  // ----- Tickets (pg_ticket_store.cc) -----

  // Adds a ticket for its players (and party), SEARCHING. With a `request_id` (per `creator`):
  // a repeat with the same `digest` returns the ticket as stored, another is ALREADY_EXISTS.
  // FAILED_PRECONDITION naming the player when one of them has a live ticket already; ABORTED
  // when the party's members are no longer `ticket.players` (it changed meanwhile).
  absl::StatusOr<TicketRow> InsertTicket(const TicketRow& ticket, const std::string& creator,
                                         const std::string& request_id,
                                         const std::string& digest);
  // InsertTicket for many one-player tickets in one transaction (pg_ticket_batch.cc): each
  // request's outcome, in order. Each is what InsertTicket would answer after finding the
  // player by token (UNAUTHENTICATED "unknown token") and the queue (NOT_FOUND); two requests
  // of one batch for the same player are taken in order. The transaction's own failure
  // (another process inserted one of the players' tickets meanwhile; the database) is the
  // error, with nothing stored: the caller then takes each request on its own.
  absl::StatusOr<std::vector<absl::StatusOr<TicketRow>>> InsertSoloTickets(
      const std::vector<SoloTicketRequest>& requests);
  // The ticket with its seatings, or nullopt.
  absl::StatusOr<std::optional<TicketRow>> GetTicket(const std::string& ticket_id);
  // Cancels a SEARCHING ticket and returns it as it is then (a CANCELLED one unchanged).
  // NOT_FOUND; FAILED_PRECONDITION naming the state it is in otherwise.
  absl::StatusOr<TicketRow> CancelTicket(const std::string& ticket_id, absl::Time now);
  // The SEARCHING tickets of a queue, oldest first.
  absl::StatusOr<std::vector<TicketRow>> SearchingTickets(const std::string& queue_id);
  // For each of `players` who has any: the players on their team in their last `last_matches`
  // formed matches of the queue (bots are nobody's partners here).
  absl::StatusOr<std::map<std::string, std::vector<std::string>>> RecentPartners(
      const std::string& queue_id, const std::vector<std::string>& players, int last_matches);
  // A version of each of those of `ticket_ids` that exist, which differs after every change
  // of the ticket's row (its xmin: the writing transaction), for WatchTicket's change feed.
  // Update times would not do: a pass records two changes at its own `now`.
  absl::StatusOr<std::map<std::string, std::string>> TicketVersions(
      const std::vector<std::string>& ticket_ids);
  // How many tickets are SEARCHING, by queue (queues with none left out).
  absl::StatusOr<std::map<std::string, int>> SearchingCounts();
  // How many tickets are SEARCHING in a queue.
  absl::StatusOr<int> CountSearching(const std::string& queue_id);
  // Ends EXPIRED the SEARCHING tickets of a queue created before `created_before`; how many.
  absl::StatusOr<int> ExpireTickets(const std::string& queue_id, absl::Time created_before,
                                    absl::Time now);

  // Records a formed match and claims its tickets (FORMING), all or nothing: ABORTED, with
  // nothing written, when one of them is no longer SEARCHING (cancelled, or claimed by another
  // pass, here or in another process).
  absl::Status ClaimMatch(const FormedMatchRow& match);
  // ClaimMatch for many in one transaction (each match all or nothing): which were claimed,
  // in order.
  absl::StatusOr<std::vector<bool>> ClaimMatches(const std::vector<FormedMatchRow>& matches);
  // Formed matches not yet confirmed created, oldest first, at most `limit`: those of the queues
  // `queue_ids` (the queues this process holds, ClaimQueues) and of queues deleted since.
  absl::StatusOr<std::vector<FormedMatchRow>> PendingMatches(
      int limit, const std::vector<std::string>& queue_ids);

  // The queues a matchmaker may run a pass over now, held (a session advisory lock each, on a
  // connection of its own) until it is destroyed: one pass per queue at a time across every
  // process on the database (docs/scaling.md). A queue held elsewhere is left out; a process
  // that dies lets its queues go with its connection.
  class QueueClaim {
   public:
    QueueClaim(PgPool::Lease lease, std::vector<std::string> queues)
        : lease_(std::move(lease)), queues_(std::move(queues)) {}
    QueueClaim(const QueueClaim&) = delete;
    QueueClaim& operator=(const QueueClaim&) = delete;
    ~QueueClaim();
    const std::vector<std::string>& queues() const { return queues_; }

   private:
    PgPool::Lease lease_;
    std::vector<std::string> queues_;
  };
  absl::StatusOr<std::unique_ptr<QueueClaim>> ClaimQueues(
      const std::vector<std::string>& queue_ids);
  // Confirms a formed match created as `match_name` on `execution_target`, with the seat tokens
  // by seat ("" for bots): its tickets end MATCHED. Repeating it changes nothing.
  absl::Status RecordCreated(const std::string& request_id, const std::string& match_name,
                             const std::string& execution_target,
                             const std::vector<std::string>& seat_tokens, absl::Time now);
  // RecordCreated for many in one transaction: each one's status, in order. When the
  // transaction fails, each is recorded again on its own.
  std::vector<absl::Status> RecordCreatedMany(const std::vector<CreatedRecord>& records);
  // Gives up on a formed match execution refused for good: its FORMING tickets end CANCELLED
  // and the formed match is removed — unless its creation was recorded meanwhile (by another
  // process), which then stands.
  absl::Status AbandonMatch(const std::string& request_id, absl::Time now);
  // Records the result (a serialized v1.MatchResult) of the formed match created as
  // `match_name`, if it has none yet, and returns nullopt; returns the result recorded before
  // otherwise (nothing changes). NOT_FOUND when no created match has that name.
  absl::StatusOr<std::optional<std::string>> RecordResult(const std::string& match_name,
                                                          const std::string& result,
                                                          absl::Time end_time);
  // Up to `limit` of a player's seats, newest first, formed before `before` (exclusive; the
  // tie broken by request id below `before_request`); unset `before`: from the newest.
  absl::StatusOr<std::vector<PlayerMatchRow>> PlayerMatches(
      const std::string& player_id, std::optional<absl::Time> before,
      const std::string& before_request, int limit);

  // The pool and the quoted schema, for the stores that share them (PgTournamentStore).
  PgPool& pool() const { return pool_; }
  const std::string& quoted_schema() const { return schema_; }

 private:
  PgMatchmakingStore(PgPool& pool, std::string schema);
  std::string Table(const char* name) const;
  std::optional<PartyRow> ReadParty(pqxx::work& tx, const std::string& party_id) const;
  // The players of a ticket (by position) and its seatings.
  void ReadTicketDetails(pqxx::work& tx, TicketRow& ticket) const;
  // Ends the SEARCHING tickets whose `column` (a ticket column's name) is `value` (and, given
  // `created_before`, that were created before it) in `to_state`; how many.
  int EndSearchingTickets(pqxx::work& tx, const char* column, const std::string& value,
                          int to_state, absl::Time now,
                          std::optional<absl::Time> created_before = std::nullopt) const;
  bool HasLiveTicket(pqxx::work& tx, const std::string& player_id) const;
  bool PartyHasLiveTicket(pqxx::work& tx, const std::string& party_id) const;

  PgPool& pool_;
  const std::string schema_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_PG_MATCHMAKING_STORE_H_
