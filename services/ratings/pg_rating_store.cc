#include "services/ratings/pg_rating_store.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "services/common/engine_proto.h"
#include "services/common/migrations.h"
#include "services/common/pg_text.h"
#include "services/ratings/migrations.h"
#include "services/ratings/model_config.h"
#include "services/ratings/rating_update.h"

namespace boneyard::ratings {
namespace {

// --- Values to and from PostgreSQL ---

// A NULL parameter.
constexpr const char* kNull = nullptr;

using pg_text::Bytea;
using pg_text::EpochMicros;
using pg_text::Float;
using pg_text::IntArray;
using pg_text::TextArray;
using pg_text::Timestamp;


google::protobuf::Timestamp TimestampField(const pqxx::field& field) {
  return ToTimestamp(absl::FromUnixMicros(field.as<int64_t>()));
}

std::string Bytes(const pqxx::field& field) { return pqxx::binarystring(field).str(); }

std::string FloatArray(const std::vector<double>& values) {
  return absl::StrCat("{", absl::StrJoin(values, ",", [](std::string* out, double v) {
                        out->append(Float(v));
                      }),
                      "}");
}

// A model row's columns (see ModelFromRow), for SELECTs.
constexpr char kModelColumns[] = "kind, mu, sigma, beta, kappa, tau, limit_sigma";

// The model of a row whose columns `first`... are kModelColumns.
absl::StatusOr<RatingModelConfig> ModelFromRow(const pqxx::row& row, int first) {
  absl::StatusOr<ModelKind> kind = KindFromNumber(row[first].as<int>());
  if (!kind.ok()) {
    return absl::InternalError(absl::StrCat("stored model: ", kind.status().message()));
  }
  RatingModelConfig m;
  m.kind = *kind;
  m.mu = row[first + 1].as<double>();
  m.sigma = row[first + 2].as<double>();
  m.beta = row[first + 3].as<double>();
  m.kappa = row[first + 4].as<double>();
  m.tau = row[first + 5].as<double>();
  m.limit_sigma = row[first + 6].as<bool>();
  return m;
}

// A history row's columns (see ChangeFromRow), for SELECTs.
std::string ChangeColumns() {
  return absl::StrCat("match_id, player_id, game, rank, mu_before, sigma_before, mu_after, ",
                      "sigma_after, ", EpochMicros("match_end_time"));
}

v1::RatingChange ChangeFromRow(const pqxx::row& row) {
  v1::RatingChange change;
  change.set_match(absl::StrCat("matches/", row[0].as<std::string>()));
  change.set_player_id(row[1].as<std::string>());
  change.set_game(row[2].as<std::string>());
  change.set_rank(row[3].as<int>());
  change.set_mu_before(row[4].as<double>());
  change.set_sigma_before(row[5].as<double>());
  change.set_mu_after(row[6].as<double>());
  change.set_sigma_after(row[7].as<double>());
  change.set_ordinal_before(change.mu_before() - 3.0 * change.sigma_before());
  change.set_ordinal_after(change.mu_after() - 3.0 * change.sigma_after());
  *change.mutable_match_end_time() = TimestampField(row[8]);
  return change;
}

// One history row to write: a change and where it came from.
struct HistoryRow {
  const v1::RatingChange* change;
  int64_t apply_seq;
  int seat;
};

// The changes of `result` with the seat of each (changes are by seat, players unique).
int SeatOf(const ValidResult& result, const std::string& player_id) {
  auto it = std::find(result.player_ids.begin(), result.player_ids.end(), player_id);
  return static_cast<int>(it - result.player_ids.begin());
}

void CopyHistory(pqxx::work& tx, const std::string& table, const std::vector<HistoryRow>& rows,
                 const absl::flat_hash_map<std::string, absl::Time>& end_times) {
  if (rows.empty()) return;
  pqxx::stream_to copy(tx, table,
                       std::vector<std::string>{"game", "player_id", "apply_seq", "match_id",
                                                "seat", "rank", "mu_before", "sigma_before",
                                                "mu_after", "sigma_after", "match_end_time"});
  for (const HistoryRow& row : rows) {
    const v1::RatingChange& c = *row.change;
    const std::string match_id(absl::string_view(c.match()).substr(sizeof("matches/") - 1));
    copy << std::make_tuple(c.game(), c.player_id(), row.apply_seq, match_id, row.seat, c.rank(),
                            Float(c.mu_before()), Float(c.sigma_before()), Float(c.mu_after()),
                            Float(c.sigma_after()), Timestamp(end_times.at(match_id)));
  }
  copy.complete();
}

// The ratings of `players` as (game, player id) → rating, for the upsert.
struct RatingWrites {
  std::vector<std::string> games, players;
  std::vector<double> mus, sigmas, ordinals;
  std::vector<int> games_played;

  void Add(const std::string& game, const std::string& player, const PlayerRating& r) {
    games.push_back(game);
    players.push_back(player);
    mus.push_back(r.skill.mu);
    sigmas.push_back(r.skill.sigma);
    ordinals.push_back(r.skill.Ordinal());
    games_played.push_back(r.games_played);
  }
};

void WriteRatings(pqxx::work& tx, const std::string& table, const RatingWrites& w) {
  if (w.games.empty()) return;
  tx.exec_params0(
      absl::StrCat("INSERT INTO ", table,
                   " (game, player_id, mu, sigma, ordinal, games_played, update_time)"
                   " SELECT g, p, m, s, o, n, now() FROM unnest($1::text[], $2::text[],"
                   " $3::float8[], $4::float8[], $5::float8[], $6::integer[]) AS t(g, p, m, s, o, n)"
                   " ON CONFLICT (game, player_id) DO UPDATE SET mu = excluded.mu,"
                   " sigma = excluded.sigma, ordinal = excluded.ordinal,"
                   " games_played = excluded.games_played, update_time = excluded.update_time"),
      TextArray(w.games), TextArray(w.players), FloatArray(w.mus), FloatArray(w.sigmas),
      FloatArray(w.ordinals), IntArray(w.games_played));
}

// A leaderboard's entries ranked: `better` entries are strictly better than the first one and
// `before` precede it in list order (so `before - better` are ties of the first on earlier
// pages). `same(i)` says entry i compares equal to entry i - 1.
template <class Same>
void Rank(std::vector<v1::LeaderboardEntry>& entries, int64_t better, int64_t before,
          Same same) {
  for (size_t i = 0; i < entries.size(); ++i) {
    int64_t rank;
    if (i == 0) {
      rank = better + 1;
    } else if (same(i)) {
      rank = entries[i - 1].rank();
    } else {
      rank = before + static_cast<int64_t>(i) + 1;
    }
    entries[i].set_rank(static_cast<int32_t>(rank));
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<PgRatingStore>> PgRatingStore::Open(
    PgPool& pool, const std::string& schema, RatingModelConfig default_model,
    const GameRegistry& registry) {
  if (absl::Status s = ValidateConfig(default_model); !s.ok()) return s;
  if (absl::Status s = ApplyMigrations(pool, schema, RatingsMigrations()); !s.ok()) return s;
  absl::StatusOr<std::pair<std::string, int32_t>> named =
      pool.Run([&](pqxx::work& tx) -> std::pair<std::string, int32_t> {
        return {tx.quote_name(schema),
                tx.exec_params1("SELECT hashtext($1)", schema)[0].as<int32_t>()};
      });
  if (!named.ok()) return named.status();
  return std::unique_ptr<PgRatingStore>(
      new PgRatingStore(pool, named->first, named->second, default_model, registry));
}

PgRatingStore::PgRatingStore(PgPool& pool, const std::string& quoted_schema, int32_t lock_space,
                             RatingModelConfig default_model, const GameRegistry& registry)
    : pool_(pool),
      lock_space_(lock_space),
      default_model_(default_model),
      registry_(registry),
      models_(absl::StrCat(quoted_schema, ".models")),
      results_(absl::StrCat(quoted_schema, ".results")),
      ratings_(absl::StrCat(quoted_schema, ".ratings")),
      history_(absl::StrCat(quoted_schema, ".history")),
      solitaire_(absl::StrCat(quoted_schema, ".solitaire_results")),
      apply_seq_(absl::StrCat(quoted_schema, ".apply_seq")) {}

void PgRatingStore::LockGames(pqxx::work& tx, std::vector<std::string> games) const {
  std::sort(games.begin(), games.end());
  games.erase(std::unique(games.begin(), games.end()), games.end());
  for (const std::string& game : games) {
    tx.exec_params("SELECT pg_advisory_xact_lock($1, hashtext($2))", lock_space_, game);
  }
}

void PgRatingStore::StoreModel(pqxx::work& tx, const std::string& game,
                               const RatingModelConfig& m) const {
  tx.exec_params0(
      absl::StrCat("INSERT INTO ", models_,
                   " (game, kind, mu, sigma, beta, kappa, tau, limit_sigma, update_time)"
                   " VALUES ($1, $2, $3::float8, $4::float8, $5::float8, $6::float8,"
                   " $7::float8, $8, now()) ON CONFLICT (game) DO UPDATE SET kind = excluded.kind,"
                   " mu = excluded.mu, sigma = excluded.sigma, beta = excluded.beta,"
                   " kappa = excluded.kappa, tau = excluded.tau,"
                   " limit_sigma = excluded.limit_sigma, update_time = excluded.update_time"),
      game, KindNumber(m.kind), Float(m.mu), Float(m.sigma), Float(m.beta), Float(m.kappa),
      Float(m.tau), m.limit_sigma);
}

absl::StatusOr<std::vector<RatingModelConfig>> PgRatingStore::LoadModels(
    pqxx::work& tx, const std::vector<std::string>& games) const {
  absl::flat_hash_map<std::string, RatingModelConfig> stored;
  const pqxx::result rows = tx.exec_params(
      absl::StrCat("SELECT game, ", kModelColumns, " FROM ", models_,
                   " WHERE game = ANY($1::text[])"),
      TextArray(games));
  for (const pqxx::row& row : rows) {
    absl::StatusOr<RatingModelConfig> model = ModelFromRow(row, 1);
    if (!model.ok()) return model.status();
    stored.emplace(row[0].as<std::string>(), *model);
  }
  std::vector<RatingModelConfig> out;
  for (const std::string& game : games) {
    auto it = stored.find(game);
    if (it == stored.end()) {
      // The first result of the game pins its model.
      StoreModel(tx, game, default_model_);
      it = stored.emplace(game, default_model_).first;
    }
    out.push_back(it->second);
  }
  return out;
}

std::vector<int64_t> PgRatingStore::NextApplySeqs(pqxx::work& tx, int64_t count) const {
  std::vector<int64_t> out;
  if (count <= 0) return out;
  for (const pqxx::row& row :
       tx.exec_params(absl::StrCat("SELECT nextval('", apply_seq_, "') FROM generate_series(1, $1)"),
                      count)) {
    out.push_back(row[0].as<int64_t>());
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<std::vector<RecordOutcome>> PgRatingStore::RecordBatch(
    std::span<const ValidResult* const> batch) {
  const size_t n = batch.size();
  // Repeats inside the batch: an item whose match id came earlier in it answers like that
  // earlier item (the same content) or ALREADY_EXISTS (other content).
  absl::flat_hash_map<std::string, size_t> first_of;
  std::vector<std::optional<size_t>> repeat_of(n);
  std::vector<std::string> ids;
  std::vector<std::string> games;
  for (size_t i = 0; i < n; ++i) {
    auto [it, inserted] = first_of.emplace(batch[i]->match_id, i);
    if (!inserted) {
      repeat_of[i] = it->second;
      continue;
    }
    ids.push_back(batch[i]->match_id);
    games.push_back(batch[i]->game);
  }

  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<RecordOutcome>> {
    std::vector<RecordOutcome> outcomes(n, absl::InternalError("not processed"));
    LockGames(tx, games);

    // Matches recorded before.
    absl::flat_hash_map<std::string, std::string> stored;  // match id → canonical
    for (const pqxx::row& row :
         tx.exec_params(absl::StrCat("SELECT match_id, canonical FROM ", results_,
                                     " WHERE match_id = ANY($1::text[])"),
                        TextArray(ids))) {
      stored.emplace(row[0].as<std::string>(), Bytes(row[1]));
    }
    std::vector<std::string> repeated_ids;
    std::vector<size_t> fresh;  // indexes of results to apply now
    for (size_t i = 0; i < n; ++i) {
      if (repeat_of[i].has_value()) continue;
      auto it = stored.find(batch[i]->match_id);
      if (it == stored.end()) {
        fresh.push_back(i);
      } else if (it->second == batch[i]->canonical) {
        repeated_ids.push_back(it->first);
      } else {
        outcomes[i] = absl::AlreadyExistsError(absl::StrCat(
            "matches/", it->first, " was recorded with another result: recorded: ",
            DescribeCanonical(it->second), "; this request: ",
            DescribeCanonical(batch[i]->canonical)));
      }
    }
    // Their responses: the changes stored for them, by seat.
    absl::flat_hash_map<std::string, v1::RecordResultResponse> earlier;
    for (const std::string& id : repeated_ids) {
      v1::RecordResultResponse& response = earlier[id];
      response.set_match(absl::StrCat("matches/", id));
      response.set_already_recorded(true);
    }
    if (!repeated_ids.empty()) {
      for (const pqxx::row& row : tx.exec_params(
               absl::StrCat("SELECT ", ChangeColumns(), " FROM ", history_,
                            " WHERE match_id = ANY($1::text[]) ORDER BY match_id, seat"),
               TextArray(repeated_ids))) {
        *earlier[row[0].as<std::string>()].add_changes() = ChangeFromRow(row);
      }
      for (size_t i = 0; i < n; ++i) {
        if (repeat_of[i].has_value()) continue;
        auto it = earlier.find(batch[i]->match_id);
        if (it != earlier.end()) outcomes[i] = it->second;
      }
    }

    // The models and current ratings the fresh results need.
    std::vector<std::string> fresh_games;
    std::vector<std::string> key_games, key_players;
    for (size_t i : fresh) {
      if (batch[i]->solitaire.has_value()) continue;  // listed, not rated: no model
      fresh_games.push_back(batch[i]->game);
      for (const std::string& player : batch[i]->player_ids) {
        if (player.empty()) continue;
        key_games.push_back(batch[i]->game);
        key_players.push_back(player);
      }
    }
    std::sort(fresh_games.begin(), fresh_games.end());
    fresh_games.erase(std::unique(fresh_games.begin(), fresh_games.end()), fresh_games.end());
    absl::flat_hash_map<std::string, RatingModelConfig> models;
    absl::flat_hash_map<std::string, RatingTable> tables;
    if (!fresh_games.empty()) {
      absl::StatusOr<std::vector<RatingModelConfig>> loaded = LoadModels(tx, fresh_games);
      if (!loaded.ok()) return loaded.status();
      for (size_t g = 0; g < fresh_games.size(); ++g) models[fresh_games[g]] = (*loaded)[g];
    }
    if (!key_games.empty()) {
      for (const pqxx::row& row : tx.exec_params(
               absl::StrCat("SELECT r.game, r.player_id, r.mu, r.sigma, r.games_played FROM ",
                            ratings_,
                            " r JOIN unnest($1::text[], $2::text[]) AS k(game, player_id)"
                            " ON r.game = k.game AND r.player_id = k.player_id"),
               TextArray(key_games), TextArray(key_players))) {
        PlayerRating& r = tables[row[0].as<std::string>()][row[1].as<std::string>()];
        r.skill.mu = row[2].as<double>();
        r.skill.sigma = row[3].as<double>();
        r.games_played = row[4].as<int>();
      }
    }

    // Rate the fresh results in order.
    const std::vector<int64_t> seqs = NextApplySeqs(tx, static_cast<int64_t>(fresh.size()));
    std::vector<size_t> applied;
    std::vector<HistoryRow> history;
    absl::flat_hash_map<std::string, absl::Time> end_times;
    absl::flat_hash_set<std::pair<std::string, std::string>> touched;
    for (size_t f = 0; f < fresh.size(); ++f) {
      const ValidResult& result = *batch[fresh[f]];
      v1::RecordResultResponse response;
      response.set_match(absl::StrCat("matches/", result.match_id));
      if (!result.solitaire.has_value()) {
        absl::StatusOr<std::vector<v1::RatingChange>> changes =
            ApplyResult(models.at(result.game), result, tables[result.game]);
        if (!changes.ok()) {
          outcomes[fresh[f]] = changes.status();
          continue;
        }
        for (v1::RatingChange& change : *changes) {
          touched.emplace(result.game, change.player_id());
          *response.add_changes() = std::move(change);
        }
      }
      outcomes[fresh[f]] = std::move(response);
      applied.push_back(fresh[f]);
      end_times[result.match_id] = result.end_time;
      for (const v1::RatingChange& change : outcomes[fresh[f]]->changes()) {
        history.push_back(HistoryRow{&change, seqs[f], SeatOf(result, change.player_id())});
      }
    }

    // Write: the idempotency records first, then what they caused.
    if (!applied.empty()) {
      const std::string now = Timestamp(absl::Now());
      pqxx::stream_to copy(tx, results_,
                           std::vector<std::string>{"match_id", "game", "end_time", "canonical",
                                                    "request", "record_time"});
      for (size_t i : applied) {
        const ValidResult& r = *batch[i];
        copy << std::make_tuple(r.match_id, r.game, Timestamp(r.end_time), Bytea(r.canonical),
                                Bytea(r.request), now);
      }
      copy.complete();
    }
    CopyHistory(tx, history_, history, end_times);
    RatingWrites writes;
    for (const auto& [game, player] : touched) writes.Add(game, player, tables[game][player]);
    WriteRatings(tx, ratings_, writes);
    bool any_solitaire = false;
    for (size_t i : applied) {
      any_solitaire = any_solitaire || (batch[i]->solitaire.has_value() &&
                                        !batch[i]->player_ids[0].empty());
    }
    if (any_solitaire) {
      pqxx::stream_to copy(tx, solitaire_,
                           std::vector<std::string>{"match_id", "game", "player_id", "tiles_left",
                                                    "pips_left", "duration_millis", "won",
                                                    "end_time"});
      for (size_t i : applied) {
        const ValidResult& r = *batch[i];
        if (!r.solitaire.has_value() || r.player_ids[0].empty()) continue;
        copy << std::make_tuple(r.match_id, r.game, r.player_ids[0], r.solitaire->tiles_left,
                                r.solitaire->pips_left, r.solitaire->duration_millis,
                                r.solitaire->won, Timestamp(r.end_time));
      }
      copy.complete();
    }

    // Repeats inside the batch answer like their first.
    for (size_t i = 0; i < n; ++i) {
      if (!repeat_of[i].has_value()) continue;
      const size_t first = *repeat_of[i];
      if (batch[i]->canonical != batch[first]->canonical) {
        outcomes[i] = absl::AlreadyExistsError(absl::StrCat(
            "matches/", batch[i]->match_id, " was recorded with another result: recorded: ",
            DescribeCanonical(batch[first]->canonical),
            "; this request: ", DescribeCanonical(batch[i]->canonical)));
      } else if (outcomes[first].ok()) {
        v1::RecordResultResponse response = *outcomes[first];
        response.set_already_recorded(true);
        outcomes[i] = std::move(response);
      } else {
        outcomes[i] = outcomes[first].status();
      }
    }
    return outcomes;
  });
}

absl::StatusOr<RerateSummary> PgRatingStore::Rerate(const std::string& game,
                                                    const std::optional<RatingModelConfig>& model) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<RerateSummary> {
    LockGames(tx, {game});
    RerateSummary summary;
    if (model.has_value()) {
      StoreModel(tx, game, *model);
      summary.model = *model;
    } else {
      absl::StatusOr<std::vector<RatingModelConfig>> current = LoadModels(tx, {game});
      if (!current.ok()) return current.status();
      summary.model = current->front();
    }
    std::vector<ValidResult> results;
    for (const pqxx::row& row :
         tx.exec_params(absl::StrCat("SELECT match_id, request FROM ", results_,
                                     " WHERE game = $1 ORDER BY end_time, match_id"),
                        game)) {
      v1::RecordResultRequest request;
      if (!request.ParseFromString(Bytes(row[1]))) {
        return absl::InternalError(
            absl::StrCat("the stored request of matches/", row[0].as<std::string>(),
                         " does not parse"));
      }
      absl::StatusOr<ValidResult> result = ValidateResult(request, registry_);
      if (!result.ok()) {
        return absl::InternalError(absl::StrCat("the stored result of matches/",
                                                row[0].as<std::string>(),
                                                " is no longer valid: ", result.status().message()));
      }
      results.push_back(*std::move(result));
    }
    tx.exec_params0(absl::StrCat("DELETE FROM ", history_, " WHERE game = $1"), game);
    tx.exec_params0(absl::StrCat("DELETE FROM ", ratings_, " WHERE game = $1"), game);

    const std::vector<int64_t> seqs = NextApplySeqs(tx, static_cast<int64_t>(results.size()));
    RatingTable table;
    std::vector<std::vector<v1::RatingChange>> changes(results.size());
    std::vector<HistoryRow> history;
    absl::flat_hash_map<std::string, absl::Time> end_times;
    for (size_t i = 0; i < results.size(); ++i) {
      absl::StatusOr<std::vector<v1::RatingChange>> applied =
          ApplyResult(summary.model, results[i], table);
      if (!applied.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("matches/", results[i].match_id,
                                                       " cannot be rated with this model: ",
                                                       applied.status().message()));
      }
      changes[i] = *std::move(applied);
      end_times[results[i].match_id] = results[i].end_time;
      for (const v1::RatingChange& change : changes[i]) {
        history.push_back(HistoryRow{&change, seqs[i], SeatOf(results[i], change.player_id())});
      }
    }
    CopyHistory(tx, history_, history, end_times);
    RatingWrites writes;
    for (const auto& [player, rating] : table) writes.Add(game, player, rating);
    WriteRatings(tx, ratings_, writes);
    summary.results = static_cast<int64_t>(results.size());
    summary.players = static_cast<int64_t>(table.size());
    return summary;
  });
}

absl::StatusOr<RatingModelConfig> PgRatingStore::ModelOf(const std::string& game) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<RatingModelConfig> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kModelColumns, " FROM ", models_, " WHERE game = $1"), game);
    if (rows.empty()) return default_model_;
    return ModelFromRow(rows[0], 0);
  });
}

absl::StatusOr<std::optional<v1::Rating>> PgRatingStore::GetRating(const std::string& game,
                                                                   const std::string& player_id) {
  absl::StatusOr<std::map<std::string, v1::Rating>> found = GetRatings(game, {player_id});
  if (!found.ok()) return found.status();
  auto it = found->find(player_id);
  if (it == found->end()) return std::optional<v1::Rating>();
  return std::optional<v1::Rating>(std::move(it->second));
}

absl::StatusOr<std::map<std::string, v1::Rating>> PgRatingStore::GetRatings(
    const std::string& game, const std::vector<std::string>& player_ids) {
  return pool_.Run([&](pqxx::work& tx) {
    std::map<std::string, v1::Rating> found;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT player_id, mu, sigma, games_played, ",
                          EpochMicros("update_time"), " FROM ", ratings_,
                          " WHERE game = $1 AND player_id = ANY($2::text[])"),
             game, TextArray(player_ids))) {
      const std::string player = row[0].as<std::string>();
      PlayerRating r{{row[1].as<double>(), row[2].as<double>()}, row[3].as<int>()};
      v1::Rating rating = RatingToProto(game, player, r);
      *rating.mutable_update_time() = TimestampField(row[4]);
      found.emplace(player, std::move(rating));
    }
    return found;
  });
}

absl::StatusOr<LeaderboardPage> PgRatingStore::ListRatings(
    const std::string& game, const std::optional<LeaderboardCursor>& after, int limit) {
  const std::string list = absl::StrCat(
      "SELECT player_id, mu, sigma, ordinal, games_played, ", EpochMicros("update_time"), " FROM ",
      ratings_,
      " WHERE game = $1 AND ($2::float8 IS NULL OR ordinal < $2::float8"
      " OR (ordinal = $2::float8 AND player_id > $3))"
      " ORDER BY ordinal DESC, player_id LIMIT $4");
  const std::string counts = absl::StrCat(
      "SELECT count(*) FILTER (WHERE ordinal > $2::float8), count(*) FROM ", ratings_,
      " WHERE game = $1 AND (ordinal > $2::float8 OR (ordinal = $2::float8 AND player_id < $3))");
  const std::string cursor_ordinal = after.has_value() ? Float(after->ordinal) : "";
  const std::string cursor_id = after.has_value() ? after->id : "";
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<LeaderboardPage> {
    tx.exec0("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const pqxx::result rows =
        tx.exec_params(list, game, after.has_value() ? cursor_ordinal.c_str() : kNull,
                       cursor_id, int64_t{limit} + 1);
    LeaderboardPage page;
    const int count = std::min<int>(rows.size(), limit);
    std::vector<double> ordinals;
    for (int i = 0; i < count; ++i) {
      const pqxx::row& row = rows[i];
      PlayerRating r{{row[1].as<double>(), row[2].as<double>()}, row[4].as<int>()};
      v1::LeaderboardEntry& entry = page.entries.emplace_back();
      entry.set_player_id(row[0].as<std::string>());
      *entry.mutable_rating() = RatingToProto(game, entry.player_id(), r);
      *entry.mutable_rating()->mutable_update_time() = TimestampField(row[5]);
      ordinals.push_back(row[3].as<double>());
    }
    if (page.entries.empty()) return page;
    const pqxx::row c = tx.exec_params1(counts, game, Float(ordinals[0]),
                                        page.entries[0].player_id());
    Rank(page.entries, c[0].as<int64_t>(), c[1].as<int64_t>(),
         [&](size_t i) { return ordinals[i] == ordinals[i - 1]; });
    if (static_cast<int>(rows.size()) > limit) {
      page.next = LeaderboardCursor{.ordinal = ordinals.back(), .id = page.entries.back().player_id()};
    }
    return page;
  });
}

absl::StatusOr<LeaderboardPage> PgRatingStore::ListSolitaire(
    const std::string& game, bool all_results, const std::optional<LeaderboardCursor>& after,
    int limit) {
  // The entries: every result, or each player's best; `key` is the last sort column.
  const std::string key = all_results ? "match_id" : "player_id";
  const std::string entries =
      all_results
          ? absl::StrCat("SELECT * FROM ", solitaire_, " WHERE game = $1")
          : absl::StrCat("SELECT DISTINCT ON (player_id) * FROM ", solitaire_,
                         " WHERE game = $1"
                         " ORDER BY player_id, tiles_left, pips_left, duration_millis, match_id");
  const std::string list = absl::StrCat(
      "WITH e AS (", entries, ") SELECT player_id, match_id, tiles_left, pips_left,"
      " duration_millis, won, ", EpochMicros("end_time"), " FROM e"
      " WHERE $2::integer IS NULL OR (tiles_left, pips_left, duration_millis, ", key,
      ") > ($2::integer, $3::integer, $4::bigint, $5::text)"
      " ORDER BY tiles_left, pips_left, duration_millis, ", key, " LIMIT $6");
  const std::string counts = absl::StrCat(
      "WITH e AS (", entries, ") SELECT"
      " count(*) FILTER (WHERE (tiles_left, pips_left, duration_millis) < ($2, $3, $4::bigint)),"
      " count(*) FROM e WHERE (tiles_left, pips_left, duration_millis, ", key,
      ") < ($2, $3, $4::bigint, $5::text)");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<LeaderboardPage> {
    tx.exec0("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const pqxx::result rows =
        after.has_value()
            ? tx.exec_params(list, game, after->tiles_left, after->pips_left,
                             after->duration_millis, after->id, int64_t{limit} + 1)
            : tx.exec_params(list, game, kNull, kNull, kNull, kNull, int64_t{limit} + 1);
    LeaderboardPage page;
    const int count = std::min<int>(rows.size(), limit);
    for (int i = 0; i < count; ++i) {
      const pqxx::row& row = rows[i];
      v1::LeaderboardEntry& entry = page.entries.emplace_back();
      entry.set_player_id(row[0].as<std::string>());
      v1::SolitaireResult& result = *entry.mutable_result();
      result.set_match(absl::StrCat("matches/", row[1].as<std::string>()));
      result.set_tiles_left(row[2].as<int>());
      result.set_pips_left(row[3].as<int>());
      result.set_duration_millis(row[4].as<int64_t>());
      result.set_won(row[5].as<bool>());
      *result.mutable_end_time() = TimestampField(row[6]);
    }
    if (page.entries.empty()) return page;
    auto id_of = [&](const v1::LeaderboardEntry& e) {
      return all_results ? std::string(absl::string_view(e.result().match()).substr(8))
                         : e.player_id();
    };
    const v1::SolitaireResult& first = page.entries[0].result();
    const pqxx::row c = tx.exec_params1(counts, game, first.tiles_left(), first.pips_left(),
                                        first.duration_millis(), id_of(page.entries[0]));
    Rank(page.entries, c[0].as<int64_t>(), c[1].as<int64_t>(), [&](size_t i) {
      const v1::SolitaireResult& a = page.entries[i - 1].result();
      const v1::SolitaireResult& b = page.entries[i].result();
      return a.tiles_left() == b.tiles_left() && a.pips_left() == b.pips_left() &&
             a.duration_millis() == b.duration_millis();
    });
    if (static_cast<int>(rows.size()) > limit) {
      const v1::SolitaireResult& last = page.entries.back().result();
      page.next = LeaderboardCursor{.tiles_left = last.tiles_left(),
                                    .pips_left = last.pips_left(),
                                    .duration_millis = last.duration_millis(),
                                    .id = id_of(page.entries.back())};
    }
    return page;
  });
}

absl::StatusOr<HistoryPage> PgRatingStore::ListHistory(const std::string& game,
                                                       const std::string& player_id,
                                                       std::optional<int64_t> before, int limit) {
  const std::string query = absl::StrCat(
      "SELECT ", ChangeColumns(), ", apply_seq FROM ", history_,
      " WHERE player_id = $1 AND game = $2 AND ($3::bigint IS NULL OR apply_seq < $3::bigint)"
      " ORDER BY apply_seq DESC LIMIT $4");
  return pool_.Run([&](pqxx::work& tx) -> HistoryPage {
    const std::string bound = before.has_value() ? absl::StrCat(*before) : "";
    const pqxx::result rows = tx.exec_params(
        query, player_id, game, before.has_value() ? bound.c_str() : kNull, int64_t{limit} + 1);
    HistoryPage page;
    const int count = std::min<int>(rows.size(), limit);
    for (int i = 0; i < count; ++i) page.changes.push_back(ChangeFromRow(rows[i]));
    if (static_cast<int>(rows.size()) > limit) page.next_before = rows[count - 1][9].as<int64_t>();
    return page;
  });
}

}  // namespace boneyard::ratings
