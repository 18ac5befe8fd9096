// The ratings service's store on PostgreSQL with libpqxx (tables:
// services/ratings/migrations/). No gRPC. Every method is one transaction through PgPool, so
// libpqxx's exceptions come back as absl::Status codes (FromPqxx); nothing here retries — the
// batcher does, because it knows a batch may run twice.
//
// Writers (RecordBatch, Rerate) first take a transaction-scoped advisory lock per game, in
// sorted order: one writer per game at a time across every process on the database, so a
// result is rated against the ratings the previous one left, and a re-rating excludes the
// writes of that game. The primary key of `results` (the match id) is the backstop of
// exactly-once: a second insert of a match id fails the whole transaction (ALREADY_EXISTS)
// rather than rate twice.
//
// Every statement names its tables with the schema given to Open (quoted), so one database
// can hold many stores side by side (the tests use a schema each).
#ifndef BONEYARD_SERVICES_RATINGS_PG_RATING_STORE_H_
#define BONEYARD_SERVICES_RATINGS_PG_RATING_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "boneyard/v1/ratings.pb.h"
#include "engine/core/registry.h"
#include "services/common/pg_pool.h"
#include "services/ratings/match_result.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings {

// What RecordBatch answers for one result.
using RecordOutcome = absl::StatusOr<v1::RecordResultResponse>;

struct RerateSummary {
  int64_t results = 0;
  int64_t players = 0;
  RatingModelConfig model;
};

// Where a leaderboard page ended: the last entry's sort key.
struct LeaderboardCursor {
  double ordinal = 0;  // rated games
  int tiles_left = 0;  // solitaire games
  int pips_left = 0;
  int64_t duration_millis = 0;
  std::string id;  // the player id; the match id for a solitaire game's all_results
};

struct LeaderboardPage {
  // Ranked: 1 + the number of entries strictly better (ties share a rank). `rating` entries
  // have `provisional` unset: the caller knows the threshold.
  std::vector<v1::LeaderboardEntry> entries;
  std::optional<LeaderboardCursor> next;
};

struct HistoryPage {
  std::vector<v1::RatingChange> changes;  // newest first
  std::optional<int64_t> next_before;     // the apply_seq the next page starts below
};

class PgRatingStore {
 public:
  // Applies the ratings migrations to `schema` (creating it if needed) and returns a store
  // over `pool`, which must outlive it. `default_model` is the model of a game rated for the
  // first time (it is then stored as the game's model). `registry` must outlive the store.
  static absl::StatusOr<std::unique_ptr<PgRatingStore>> Open(PgPool& pool,
                                                             const std::string& schema,
                                                             RatingModelConfig default_model,
                                                             const GameRegistry& registry);

  // Applies `batch` (validated results, in arrival order) in one transaction and returns one
  // outcome per result, in order:
  // - a match id already recorded with the same canonical result, or earlier in the batch:
  //   `already_recorded` and the changes stored for it;
  // - the same match id with a different result: ALREADY_EXISTS describing both;
  // - otherwise the result is rated against the ratings left by everything before it (in the
  //   database and earlier in the batch), and its history, ratings and idempotency record
  //   written; its response lists the changes.
  // An error (the transaction failed) means nothing of the batch was stored.
  absl::StatusOr<std::vector<RecordOutcome>> RecordBatch(std::span<const ValidResult* const> batch);

  // Recomputes `game` (a rated game) from its stored results in match-finish order (end_time,
  // then match id) with `model` (which becomes the game's model) or the game's current one,
  // in one transaction.
  absl::StatusOr<RerateSummary> Rerate(const std::string& game,
                                       const std::optional<RatingModelConfig>& model);

  // The game's stored model, or the default one.
  absl::StatusOr<RatingModelConfig> ModelOf(const std::string& game);

  // The player's rating (name, ids, mu, sigma, ordinal, games_played, update_time); nullopt
  // before their first rated match of the game.
  absl::StatusOr<std::optional<v1::Rating>> GetRating(const std::string& game,
                                                      const std::string& player_id);
  // As GetRating for several players in one query: those with a rating, by player id.
  absl::StatusOr<std::map<std::string, v1::Rating>> GetRatings(
      const std::string& game, const std::vector<std::string>& player_ids);

  // A rated game's leaderboard: ordinal descending, then player id.
  absl::StatusOr<LeaderboardPage> ListRatings(const std::string& game,
                                              const std::optional<LeaderboardCursor>& after,
                                              int limit);
  // A solitaire game's leaderboard: tiles left, pips left, duration (ascending), then player id
  // (each player's best: the first of their results in that order) or, with `all_results`,
  // match id (every result).
  absl::StatusOr<LeaderboardPage> ListSolitaire(const std::string& game, bool all_results,
                                                const std::optional<LeaderboardCursor>& after,
                                                int limit);

  // A player's changes in a game, newest first, below `before` (an apply_seq) when given.
  absl::StatusOr<HistoryPage> ListHistory(const std::string& game, const std::string& player_id,
                                          std::optional<int64_t> before, int limit);

 private:
  PgRatingStore(PgPool& pool, const std::string& quoted_schema, int32_t lock_space,
                RatingModelConfig default_model, const GameRegistry& registry);

  // Takes the games' advisory locks (sorted, each once).
  void LockGames(pqxx::work& tx, std::vector<std::string> games) const;
  // The models of `games` (stored ones; the default, stored now, for the others).
  absl::StatusOr<std::vector<RatingModelConfig>> LoadModels(
      pqxx::work& tx, const std::vector<std::string>& games) const;
  void StoreModel(pqxx::work& tx, const std::string& game, const RatingModelConfig& model) const;
  // `count` new apply_seq values, ascending.
  std::vector<int64_t> NextApplySeqs(pqxx::work& tx, int64_t count) const;

  PgPool& pool_;
  const int32_t lock_space_;  // the first key of the advisory locks: the schema's hash
  const RatingModelConfig default_model_;
  const GameRegistry& registry_;
  // Schema-qualified, quoted names for SQL text.
  const std::string models_;
  const std::string results_;
  const std::string ratings_;
  const std::string history_;
  const std::string solitaire_;
  const std::string apply_seq_;
};

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_PG_RATING_STORE_H_
