// Game records: the one JSON format boneyard uses for replays, audits and bug reports
// (docs/records.md). A record with explicit deals needs no RNG to replay: each draw takes the
// next boneyard tile.
#ifndef BONEYARD_ENGINE_RECORDS_RECORD_H_
#define BONEYARD_ENGINE_RECORDS_RECORD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/rules.h"
#include "nlohmann/json.hpp"

namespace boneyard {

struct RecordedAction {
  int seat = 0;
  std::string action;
  friend bool operator==(const RecordedAction&, const RecordedAction&) = default;
};

struct RecordedRound {
  std::optional<Deal> deal;  // absent: dealt from the record's seed
  std::vector<RecordedAction> actions;
  friend bool operator==(const RecordedRound&, const RecordedRound&) = default;
};

struct RecordedResult {
  std::vector<int> scores;   // per seat
  std::vector<int> ranks;    // per seat, 1 = best
  std::vector<int> winners;  // seats ranked 1
  nlohmann::json details = nlohmann::json::object();  // game-specific
  friend bool operator==(const RecordedResult&, const RecordedResult&) = default;
};

struct Record {
  std::string game;
  std::map<std::string, OptionValue> rules;  // may be partial: defaults apply
  std::optional<uint64_t> seed;
  Teams teams;                      // empty when none
  std::vector<std::string> seats;   // optional labels: "greedy", a player name
  std::vector<RecordedRound> rounds;
  std::optional<RecordedResult> result;  // present once the match is over
  friend bool operator==(const Record&, const Record&) = default;
};

// A rule value as JSON (true, 3, "classic"), and every value of `rules` as one object.
nlohmann::json OptionValueToJson(const OptionValue& value);
nlohmann::json RulesToJson(const std::map<std::string, OptionValue>& values);

nlohmann::json RecordToJson(const Record& record);
// INVALID_ARGUMENT naming the field when the JSON is not a record.
absl::StatusOr<Record> RecordFromJson(const nlohmann::json& json);
absl::StatusOr<Record> ParseRecord(absl::string_view text);

// Builds the record of a match as it is played.
class RecordBuilder {
 public:
  // `initial` is the match before any action.
  RecordBuilder(const State& initial, std::optional<uint64_t> seed,
                std::vector<std::string> seat_labels = {});
  // Call with the state *before* `action` is applied to it.
  void Add(const State& before, Action action);
  // The record so far; with the result once `state` is terminal.
  Record Build(const State& state) const;

 private:
  Record record_;
};

// The result block of a finished match.
RecordedResult ResultOf(const State& state);

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_RECORDS_RECORD_H_
