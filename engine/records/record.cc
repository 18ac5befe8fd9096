#include "engine/records/record.h"

#include "absl/strings/str_cat.h"

namespace boneyard {
namespace {

using nlohmann::json;

json TilesToJson(const std::vector<Tile>& tiles) {
  json out = json::array();
  for (const Tile& t : tiles) out.push_back(t.ToString());
  return out;
}

absl::Status FieldError(absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("record: '", field, "' ", what));
}

absl::StatusOr<std::vector<Tile>> TilesFromJson(const json& j, const std::string& field) {
  if (!j.is_array()) return FieldError(field, "must be a list of tiles like \"6-4\"");
  std::vector<Tile> out;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) return FieldError(absl::StrCat(field, "[", i, "]"), "must be a tile string");
    absl::StatusOr<Tile> t = Tile::Parse(j[i].get<std::string>());
    if (!t.ok()) return FieldError(absl::StrCat(field, "[", i, "]"), t.status().message());
    out.push_back(*t);
  }
  return out;
}

absl::StatusOr<Deal> DealFromJson(const json& j, const std::string& field) {
  if (!j.is_object()) return FieldError(field, "must be an object with 'hands' and 'boneyard'");
  Deal deal;
  if (!j.contains("hands") || !j["hands"].is_array()) {
    return FieldError(field + ".hands", "must be a list with one list of tiles per seat");
  }
  for (size_t s = 0; s < j["hands"].size(); ++s) {
    auto hand = TilesFromJson(j["hands"][s], absl::StrCat(field, ".hands[", s, "]"));
    if (!hand.ok()) return hand.status();
    deal.hands.push_back(*std::move(hand));
  }
  if (j.contains("boneyard")) {
    auto boneyard = TilesFromJson(j["boneyard"], field + ".boneyard");
    if (!boneyard.ok()) return boneyard.status();
    deal.boneyard = *std::move(boneyard);
  }
  return deal;
}

absl::StatusOr<std::vector<int>> IntsFromJson(const json& j, const std::string& field) {
  if (!j.is_array()) return FieldError(field, "must be a list of whole numbers");
  std::vector<int> out;
  for (const json& v : j) {
    if (!v.is_number_integer()) return FieldError(field, "must be a list of whole numbers");
    out.push_back(v.get<int>());
  }
  return out;
}

}  // namespace

json OptionValueToJson(const OptionValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  return std::get<std::string>(v);
}

json RulesToJson(const std::map<std::string, OptionValue>& values) {
  json out = json::object();
  for (const auto& [name, value] : values) out[name] = OptionValueToJson(value);
  return out;
}

json RecordToJson(const Record& record) {
  json j;
  j["game"] = record.game;
  j["rules"] = RulesToJson(record.rules);
  if (record.seed.has_value()) j["seed"] = *record.seed;
  if (!record.teams.empty()) j["teams"] = record.teams;
  if (!record.seats.empty()) j["seats"] = record.seats;
  json rounds = json::array();
  for (const RecordedRound& round : record.rounds) {
    json r;
    if (round.deal.has_value()) {
      json hands = json::array();
      for (const auto& hand : round.deal->hands) hands.push_back(TilesToJson(hand));
      r["deal"] = {{"hands", hands}, {"boneyard", TilesToJson(round.deal->boneyard)}};
    }
    json actions = json::array();
    for (const RecordedAction& a : round.actions) {
      actions.push_back({{"seat", a.seat}, {"action", a.action}});
    }
    r["actions"] = actions;
    rounds.push_back(r);
  }
  j["rounds"] = rounds;
  if (record.result.has_value()) {
    const RecordedResult& res = *record.result;
    j["result"] = {{"scores", res.scores},
                   {"ranks", res.ranks},
                   {"winners", res.winners},
                   {"details", res.details}};
  }
  return j;
}

absl::StatusOr<Record> RecordFromJson(const json& j) {
  if (!j.is_object()) return absl::InvalidArgumentError("record: must be a JSON object");
  Record record;
  if (!j.contains("game") || !j["game"].is_string()) return FieldError("game", "must be a game name");
  record.game = j["game"].get<std::string>();
  if (j.contains("rules")) {
    if (!j["rules"].is_object()) return FieldError("rules", "must be an object of option values");
    for (const auto& [name, value] : j["rules"].items()) {
      if (value.is_boolean()) {
        record.rules[name] = value.get<bool>();
      } else if (value.is_number_integer()) {
        record.rules[name] = value.get<int64_t>();
      } else if (value.is_string()) {
        record.rules[name] = value.get<std::string>();
      } else {
        return FieldError("rules." + name, "must be a boolean, a whole number or a string");
      }
    }
  }
  if (j.contains("seed")) {
    // nlohmann reads non-negative literals as unsigned, negative ones as signed.
    if (!j["seed"].is_number_unsigned()) return FieldError("seed", "must be a non-negative whole number");
    record.seed = j["seed"].get<uint64_t>();
  }
  if (j.contains("teams")) {
    if (!j["teams"].is_array()) return FieldError("teams", "must be a list of lists of seats");
    for (size_t t = 0; t < j["teams"].size(); ++t) {
      auto team = IntsFromJson(j["teams"][t], absl::StrCat("teams[", t, "]"));
      if (!team.ok()) return team.status();
      record.teams.push_back(*std::move(team));
    }
  }
  if (j.contains("seats")) {
    if (!j["seats"].is_array()) return FieldError("seats", "must be a list of labels");
    for (const json& s : j["seats"]) {
      if (!s.is_string()) return FieldError("seats", "must be a list of labels");
      record.seats.push_back(s.get<std::string>());
    }
  }
  if (!j.contains("rounds") || !j["rounds"].is_array()) {
    return FieldError("rounds", "must be a list of rounds");
  }
  for (size_t r = 0; r < j["rounds"].size(); ++r) {
    const json& rj = j["rounds"][r];
    const std::string field = absl::StrCat("rounds[", r, "]");
    if (!rj.is_object()) return FieldError(field, "must be an object with 'deal' and 'actions'");
    RecordedRound round;
    if (rj.contains("deal")) {
      auto deal = DealFromJson(rj["deal"], field + ".deal");
      if (!deal.ok()) return deal.status();
      round.deal = *std::move(deal);
    }
    if (rj.contains("actions")) {
      if (!rj["actions"].is_array()) return FieldError(field + ".actions", "must be a list");
      for (size_t i = 0; i < rj["actions"].size(); ++i) {
        const json& aj = rj["actions"][i];
        const std::string af = absl::StrCat(field, ".actions[", i, "]");
        if (!aj.is_object() || !aj.contains("seat") || !aj["seat"].is_number_integer() ||
            !aj.contains("action") || !aj["action"].is_string()) {
          return FieldError(af, "must be {\"seat\": <number>, \"action\": \"<text>\"}");
        }
        round.actions.push_back({aj["seat"].get<int>(), aj["action"].get<std::string>()});
      }
    }
    record.rounds.push_back(std::move(round));
  }
  if (j.contains("result")) {
    const json& rj = j["result"];
    if (!rj.is_object()) return FieldError("result", "must be an object");
    RecordedResult res;
    if (rj.contains("scores")) {
      auto v = IntsFromJson(rj["scores"], "result.scores");
      if (!v.ok()) return v.status();
      res.scores = *v;
    }
    if (rj.contains("ranks")) {
      auto v = IntsFromJson(rj["ranks"], "result.ranks");
      if (!v.ok()) return v.status();
      res.ranks = *v;
    }
    if (rj.contains("winners")) {
      auto v = IntsFromJson(rj["winners"], "result.winners");
      if (!v.ok()) return v.status();
      res.winners = *v;
    }
    if (rj.contains("details")) res.details = rj["details"];
    record.result = std::move(res);
  }
  return record;
}

absl::StatusOr<Record> ParseRecord(absl::string_view text) {
  json j = json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("record: not valid JSON");
  return RecordFromJson(j);
}

RecordedResult ResultOf(const State& state) {
  RecordedResult res;
  res.scores = state.Scores();
  res.ranks = state.Ranks();
  for (int s = 0; s < static_cast<int>(res.ranks.size()); ++s) {
    if (res.ranks[s] == 1) res.winners.push_back(s);
  }
  res.details = state.ResultDetails();
  return res;
}

RecordBuilder::RecordBuilder(const State& initial, std::optional<uint64_t> seed,
                             std::vector<std::string> seat_labels) {
  const Game& game = initial.game();
  record_.game = game.name();
  record_.rules = game.rules().values();
  record_.seed = seed;
  record_.teams = game.teams();
  record_.seats = std::move(seat_labels);
}

void RecordBuilder::Add(const State& before, Action action) {
  while (static_cast<int>(record_.rounds.size()) <= before.Round()) {
    record_.rounds.push_back(RecordedRound{before.CurrentDeal(), {}});
  }
  record_.rounds.back().actions.push_back({before.CurrentSeat(), before.ActionToString(action)});
}

Record RecordBuilder::Build(const State& state) const {
  Record record = record_;
  if (state.IsTerminal()) record.result = ResultOf(state);
  return record;
}

}  // namespace boneyard
