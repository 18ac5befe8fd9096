// The tournaments' store on PostgreSQL (tables: migrations/0006_tournaments.sql). No gRPC and no
// tournament logic: it keeps the event's facts and hands them to the logic whole
// (TournamentData), and it applies the changes the logic decided (TournamentChanges) in the
// transaction that read what they were decided from, under the tournament's row lock — so a
// round is paired once however many directors (threads, processes) look at it, and a change
// decided from a state that has moved on is never written.
//
// The schema is the matchmaking store's (PgMatchmakingStore::Open applies the migrations).
#ifndef BONEYARD_SERVICES_MATCHMAKING_PG_TOURNAMENT_STORE_H_
#define BONEYARD_SERVICES_MATCHMAKING_PG_TOURNAMENT_STORE_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace boneyard::matchmaking {

// v1.Tournament.State as stored.
inline constexpr int kTournamentRegistration = 1;
inline constexpr int kTournamentRunning = 2;
inline constexpr int kTournamentFinished = 3;

struct TournamentRow {
  std::string tournament_id;
  std::string game;
  std::string settings;  // a serialized v1.Tournament without its output-only fields
  int state = kTournamentRegistration;
  int current_round = 0;
  int rounds = 0;
  int64_t version = 0;
  int entrant_count = 0;  // read only
  absl::Time create_time;
  std::optional<absl::Time> start_time;
  std::optional<absl::Time> end_time;
  // A duplicate event's secret, from which each round's deals are seeded
  // (tournament_duplicate.h); empty for the others. Never shown.
  std::string deal_secret;
};

struct EntrantRow {
  int number = 0;
  std::string display_name;
  std::vector<std::string> players;  // seat order within the team; empty for a built-in bot
  std::string bot;                   // a serialized v1.Bot for a built-in bot
  double rating = 0;
  int pairing_number = 0;   // 0 before the start (and for a late entrant not yet paired)
  int first_round = 0;      // the round it was first paired in; 0 before
  int withdrawn_round = 0;  // 0: not withdrawn
  std::vector<int> bye_rounds;
  // Rounds it is absent from with zero points (a TRF's Z, from an import), played or to come.
  std::vector<int> zero_rounds;
  absl::Time register_time;
};

struct RoundRow {
  int round = 0;
  absl::Time start_time;
};

struct PairingRow {
  int round = 0;
  int board = 0;
  int white = 0;  // entrant numbers; black 0 is the bye
  int black = 0;
  std::string tie;  // a knockout tie's label
  int tie_id = -1;
  int override_outcome = 0;  // a v1.Outcome; 0 when the games decide
  // At tables: the entrants in seat order (white and black 0); one alone sits out.
  std::vector<int> table;
};

struct GameRow {
  std::string tournament_id;
  int round = 0;
  int board = 0;
  int game = 0;
  bool white_first = true;
  std::string request_id;
  std::string request;  // a serialized v1.CreateMatchRequest
  std::string match_name;
  std::string execution_target;
  std::vector<std::string> seat_tokens;
  std::string result;  // a serialized v1.MatchResult; empty while playing
  std::optional<absl::Time> end_time;
  absl::Time create_time;
};

// An event's facts, read in one transaction.
struct TournamentData {
  TournamentRow tournament;
  std::vector<EntrantRow> entrants;  // by number
  std::vector<RoundRow> rounds;      // by round
  std::vector<PairingRow> pairings;  // by round, board
  std::vector<GameRow> games;        // by round, board, game
};

struct AuditRow {
  std::string actor;
  std::string action;
  std::string detail;
};

// What the logic decided, written by Change in the transaction it was decided in.
struct TournamentChanges {
  std::optional<int> state;
  std::optional<int> current_round;
  std::optional<int> rounds;
  std::optional<absl::Time> start_time;
  std::optional<absl::Time> end_time;
  std::map<int, int> pairing_numbers;  // entrant number -> pairing number
  std::map<int, int> first_rounds;     // entrant number -> first round paired in
  std::map<int, int> withdrawals;      // entrant number -> withdrawn_round
  std::vector<int> removed_entrants;   // withdrawn before the start
  std::vector<RoundRow> new_rounds;
  std::vector<PairingRow> new_pairings;
  // (round, board) -> override outcome.
  std::map<std::pair<int, int>, int> overrides;
  std::vector<GameRow> new_games;
  std::vector<AuditRow> audit;
  bool empty() const {
    return !state && !current_round && !rounds && !start_time && !end_time &&
           pairing_numbers.empty() && first_rounds.empty() && withdrawals.empty() &&
           removed_entrants.empty() && new_rounds.empty() && new_pairings.empty() &&
           overrides.empty() && new_games.empty() && audit.empty();
  }
};

class PgTournamentStore {
 public:
  // `pool` must outlive the store; `quoted_schema` is the matchmaking store's schema, quoted,
  // with its migrations applied.
  PgTournamentStore(PgPool& pool, std::string quoted_schema);

  // ALREADY_EXISTS when the id is taken.
  absl::Status InsertTournament(const TournamentRow& row);
  // An event whole, as an import decided it: the tournament, its entrants (numbered, with
  // their players) and `changes`' rounds, pairings and audit, in one transaction.
  // ALREADY_EXISTS when the id is taken.
  absl::Status InsertImported(const TournamentRow& row, const std::vector<EntrantRow>& entrants,
                              const TournamentChanges& changes);
  // The tournament, or nullopt.
  absl::StatusOr<std::optional<TournamentRow>> GetTournament(const std::string& id);
  // Up to `limit` after `after_id` by id; `state` 0: every state.
  absl::StatusOr<std::vector<TournamentRow>> ListTournaments(int state, const std::string& after_id,
                                                             int limit);
  // The RUNNING tournaments' ids and versions.
  absl::StatusOr<std::vector<std::pair<std::string, int64_t>>> RunningTournaments();
  // Everything about one event in one transaction. NOT_FOUND when there is none.
  absl::StatusOr<TournamentData> Load(const std::string& id);
  // Up to `limit` entrants numbered above `after`.
  absl::StatusOr<std::vector<EntrantRow>> ListEntrants(const std::string& id, int after, int limit);

  // Registers an entrant with the next number, if the event is in registration (or running,
  // when `late` entries are allowed) and has room (fewer than `max_entrants`) and none of its
  // players is registered: FAILED_PRECONDITION
  // saying which otherwise, NOT_FOUND for no such event. Returns the entrant as stored. A
  // display name ending in '#' gets the entrant's number appended (bots: "random bot #3").
  absl::StatusOr<EntrantRow> InsertEntrant(const std::string& id, EntrantRow entrant,
                                           int max_entrants, bool late, absl::Time now);

  // Locks the event's row, reads it whole and calls `decide` with it; writes the changes it
  // returns (and bumps the version when there are any) in the same transaction. An error from
  // `decide` is returned with nothing written. NOT_FOUND when there is no such event.
  using Decide = std::function<absl::StatusOr<TournamentChanges>(const TournamentData&)>;
  absl::StatusOr<TournamentData> Change(const std::string& id, const Decide& decide);

  // Games not yet confirmed created on execution, oldest first.
  absl::StatusOr<std::vector<GameRow>> PendingGames(int limit);
  // Confirms a game created as `match_name`; repeating it changes nothing.
  absl::Status RecordGameCreated(const std::string& request_id, const std::string& match_name,
                                 const std::string& execution_target,
                                 const std::vector<std::string>& seat_tokens);
  // Records a game's result once: nullopt when recorded now, the result recorded before
  // otherwise. NOT_FOUND when no tournament game was created as `match_name`. The event's
  // version goes up, so watchers and the director see it.
  absl::StatusOr<std::optional<std::string>> RecordGameResult(const std::string& match_name,
                                                              const std::string& result,
                                                              absl::Time end_time);
  // The event's version; NOT_FOUND when there is none.
  absl::StatusOr<int64_t> Version(const std::string& id);
  // The versions of those of `ids` that exist, in one query (TournamentFeed's read).
  absl::StatusOr<std::map<std::string, int64_t>> Versions(const std::vector<std::string>& ids);

 private:
  std::string Table(const char* name) const;
  TournamentData ReadAll(pqxx::work& tx, const TournamentRow& row) const;
  void Write(pqxx::work& tx, const std::string& id, const TournamentChanges& changes) const;

  PgPool& pool_;
  const std::string schema_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_PG_TOURNAMENT_STORE_H_
