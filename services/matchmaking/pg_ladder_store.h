// The ladders' store on PostgreSQL (tables: migrations/0009_ladders.sql). No gRPC and no ladder
// rules: it keeps ladders, members and challenges, and applies the decisions the logic makes in
// the transaction that read what they were made from. Every change to a challenge takes the
// next number of the one-row challenge clock under its row lock, so changes are numbered in
// commit order (WatchEvents resumes from a number and misses nothing) and a decision's counts
// (a bot's matches under way, its games of the day) cannot be raced.
//
// The schema is the matchmaking store's (PgMatchmakingStore::Open applies the migrations).
#ifndef BONEYARD_SERVICES_MATCHMAKING_PG_LADDER_STORE_H_
#define BONEYARD_SERVICES_MATCHMAKING_PG_LADDER_STORE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace boneyard::matchmaking {

struct LadderRow {
  std::string ladder_id;
  std::string game;
  std::string settings;  // a serialized v1.Ladder (NormalizedLadder's)
  absl::Time create_time;
};

struct MemberRow {
  std::string ladder_id;
  std::string player_id;
  std::string display_name;  // read only: the player's
  int kind = 0;              // read only: v1.PlayerAccount.Kind
  bool rated_vs_bots = false;
  std::string accept;  // a serialized v1.BotAcceptRules; empty for a person
  absl::Time join_time;
};

struct ChallengeRow {
  std::string challenge_id;
  std::string ladder_id;
  std::string challenger;  // a player id
  std::string opponent;    // a player id or a house bot's rating id
  bool rated = false;
  bool bot_vs_bot = false;
  int state = 0;  // ladder_rules.h kChallenge*
  std::string decline_reason;
  std::string match_request;  // a serialized v1.CreateMatchRequest once accepted
  std::string match_name;
  std::string execution_target;
  std::vector<std::string> seat_players;  // by seat
  std::vector<std::string> seat_tokens;   // by seat; "" for a house bot
  std::string result;                     // a serialized v1.MatchResult once finished
  std::optional<absl::Time> end_time;
  int64_t sequence = 0;  // set by the store
  std::string creator;
  std::string request_id;
  std::string request_digest;
  absl::Time create_time;
  absl::Time update_time;
};

// What a challenge's decision reads, under the clock lock.
struct ChallengeCounts {
  // The opponent's challenges ACCEPTED and not finished, on any ladder.
  int opponent_active = 0;
  // The challenger's bot-versus-bot challenges on this ladder accepted in the last 24 hours.
  int challenger_bot_games_last_day = 0;
};

class PgLadderStore {
 public:
  // `pool` must outlive the store; `quoted_schema` is the matchmaking store's.
  PgLadderStore(PgPool& pool, std::string quoted_schema);

  // ALREADY_EXISTS when the id is taken.
  absl::Status InsertLadder(const LadderRow& row);
  absl::StatusOr<std::optional<LadderRow>> GetLadder(const std::string& ladder_id);
  // Up to `limit` ladders after `after_id` by id; `game` empty: every game.
  absl::StatusOr<std::vector<LadderRow>> ListLadders(const std::string& game,
                                                     const std::string& after_id, int limit);

  // Adds the member or replaces their settings (the join time stays the first); the member as
  // stored, with the player's name and kind.
  absl::StatusOr<MemberRow> UpsertMember(const MemberRow& row);
  absl::StatusOr<std::optional<MemberRow>> GetMember(const std::string& ladder_id,
                                                     const std::string& player_id);
  // Every member of the ladder, by player id.
  absl::StatusOr<std::vector<MemberRow>> Members(const std::string& ladder_id);

  // Decides and inserts a new challenge: `decide` sees the counts and completes `row` (state,
  // reason, match request) or fails, which writes nothing. When `row.request_id` was used by
  // the same creator before, nothing is decided: the stored challenge comes back with `true`.
  using Decide = std::function<absl::Status(const ChallengeCounts&, ChallengeRow&)>;
  absl::StatusOr<std::pair<ChallengeRow, bool>> CreateChallenge(ChallengeRow row,
                                                                const Decide& decide);
  absl::StatusOr<std::optional<ChallengeRow>> GetChallenge(const std::string& challenge_id);
  // Changes a challenge: `change` edits the stored row (or fails, which writes nothing), which
  // is written with the next sequence number and `now`. NOT_FOUND when there is no such one.
  using Change = std::function<absl::Status(ChallengeRow&)>;
  absl::StatusOr<ChallengeRow> ChangeChallenge(const std::string& challenge_id, absl::Time now,
                                               const Change& change);
  // A person enters a ladder's pool (`row.opponent` is its PoolKey): in one transaction, the
  // oldest challenge waiting there for the same kind of game (`row.rated`) from someone else is
  // handed to `pair`, which makes it the pair's (opponent, state, match) and is written, and is
  // the answer; with none waiting, `row` is written as it is and is the answer. ALREADY_EXISTS
  // when `row.challenger` already waits there. A repeated `request_id` answers the stored
  // challenge with `true`, as CreateChallenge does.
  absl::StatusOr<std::pair<ChallengeRow, bool>> JoinPool(ChallengeRow row, const Change& pair);
  // The challenges waiting in any ladder's pool, oldest first: id, ladder and creation time
  // (and the rest of the row).
  absl::StatusOr<std::vector<ChallengeRow>> WaitingInPools();
  // The challenge whose match this is: NOT_FOUND when none.
  absl::StatusOr<std::optional<std::string>> ChallengeOfMatch(const std::string& match_name);
  // The clock's latest number: every change committed so far is numbered at most this.
  absl::StatusOr<int64_t> LatestSequence();
  // The challenges `player` (a player id) is in, by sequence: those numbered above `after`, or,
  // with `open_only`, those OFFERED or ACCEPTED (any number). At most `limit`.
  absl::StatusOr<std::vector<ChallengeRow>> Events(const std::string& player, int64_t after,
                                                   bool open_only, int limit);
  // What changed for the watched players (LadderFeed's read), in one transaction: the clock's
  // latest number, read first, then each challenge numbered above `after[i]` that `players[i]`
  // is in, once for each watched player in it, by sequence. At most `limit` rows; `truncated`
  // when more may follow.
  struct WatchedChanges {
    int64_t latest = 0;
    std::vector<std::pair<std::string, ChallengeRow>> rows;  // (player, challenge)
    bool truncated = false;
  };
  absl::StatusOr<WatchedChanges> ChangesOf(const std::vector<std::string>& players,
                                           const std::vector<int64_t>& after, int limit);

 private:
  std::string Table(const char* name) const;
  // The next clock number, taking the clock's row lock until the transaction ends.
  int64_t Tick(pqxx::work& tx) const;
  void WriteChallenge(pqxx::work& tx, const ChallengeRow& row) const;

  PgPool& pool_;
  const std::string schema_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_PG_LADDER_STORE_H_
