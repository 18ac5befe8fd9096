#include "services/ratings/rating_update.h"

#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/engine_proto.h"

namespace boneyard::ratings {

v1::Rating RatingToProto(const std::string& game, const std::string& player_id,
                         const PlayerRating& rating) {
  v1::Rating out;
  out.set_name(absl::StrCat("players/", player_id, "/ratings/", game));
  out.set_player_id(player_id);
  out.set_game(game);
  out.set_mu(rating.skill.mu);
  out.set_sigma(rating.skill.sigma);
  out.set_ordinal(rating.skill.Ordinal());
  out.set_games_played(rating.games_played);
  return out;
}

absl::StatusOr<std::vector<v1::RatingChange>> ApplyResult(const RatingModelConfig& model,
                                                          const ValidResult& result,
                                                          RatingTable& table) {
  const SkillRating initial = InitialRating(model);
  std::vector<std::vector<SkillRating>> before;
  before.reserve(result.teams.size());
  for (const std::vector<int>& team : result.teams) {
    std::vector<SkillRating>& members = before.emplace_back();
    for (int seat : team) {
      const std::string& player = result.player_ids[seat];
      auto it = player.empty() ? table.end() : table.find(player);
      members.push_back(it == table.end() ? initial : it->second.skill);
    }
  }
  absl::StatusOr<std::vector<std::vector<SkillRating>>> after =
      Rate(model, std::span<const std::vector<SkillRating>>(before),
           std::span<const double>(result.team_ranks));
  if (!after.ok()) return after.status();

  // Where each seat sits in `before`, so the changes come out by seat.
  std::vector<std::pair<size_t, size_t>> place(result.player_ids.size());
  for (size_t t = 0; t < result.teams.size(); ++t) {
    for (size_t m = 0; m < result.teams[t].size(); ++m) place[result.teams[t][m]] = {t, m};
  }
  std::vector<v1::RatingChange> changes;
  const std::string match = absl::StrCat("matches/", result.match_id);
  const google::protobuf::Timestamp end_time = ToTimestamp(result.end_time);
  for (size_t seat = 0; seat < result.player_ids.size(); ++seat) {
    const std::string& player = result.player_ids[seat];
    if (player.empty()) continue;
    const auto [t, m] = place[seat];
    const SkillRating& old_skill = before[t][m];
    // A weighted seat (a person against a ladder's bots) moves that share of the way.
    const double w = seat < result.weights.size() ? result.weights[seat] : 1.0;
    SkillRating new_skill = (*after)[t][m];
    if (w != 1.0) {
      new_skill.mu = old_skill.mu + w * (new_skill.mu - old_skill.mu);
      new_skill.sigma = old_skill.sigma + w * (new_skill.sigma - old_skill.sigma);
    }
    PlayerRating& stored = table[player];
    stored.skill = new_skill;
    ++stored.games_played;
    v1::RatingChange& change = changes.emplace_back();
    change.set_match(match);
    change.set_player_id(player);
    change.set_game(result.game);
    change.set_rank(result.seat_ranks[seat]);
    change.set_mu_before(old_skill.mu);
    change.set_sigma_before(old_skill.sigma);
    change.set_mu_after(new_skill.mu);
    change.set_sigma_after(new_skill.sigma);
    change.set_ordinal_before(old_skill.Ordinal());
    change.set_ordinal_after(new_skill.Ordinal());
    *change.mutable_match_end_time() = end_time;
  }
  return changes;
}

}  // namespace boneyard::ratings
