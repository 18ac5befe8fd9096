// Fuzz target: every game's action notation (State::ParseAction, ResolveAction and
// ExplainIllegal) at positions the input chooses, the text a player sends to SubmitAction/Play.
//
// Input: byte 0 picks the game (every game under each of its presets), bytes 1-8 the seed, byte
// 9 how many moves to play first, each picked by one further byte, the next byte the seat that
// sends the text; the rest is the text.
// Properties: nothing crashes; a text that parses names an action whose own text parses back to
// it; a text that resolves for a seat names a legal action of the seat to move.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "tests/fuzz/fuzz_input.h"

namespace boneyard {
namespace {

const std::vector<std::shared_ptr<const Game>>& Games() {
  static const auto* const games = [] {
    auto* all = new std::vector<std::shared_ptr<const Game>>();
    for (const GameSpec* spec : DefaultRegistry().List()) {
      std::vector<RuleText> choices = {{}};
      for (const Preset& preset : spec->presets) choices.push_back({{"preset", preset.name}});
      for (const RuleText& rules : choices) {
        absl::StatusOr<std::shared_ptr<const Game>> game =
            DefaultRegistry().CreateGame(spec->name, rules);
        if (!game.ok()) std::abort();  // every preset of every game makes a game
        all->push_back(*std::move(game));
      }
    }
    return all;
  }();
  return *games;
}

void Check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace
}  // namespace boneyard

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace boneyard;
  fuzz::Input input(data, size);
  const auto& games = Games();
  const Game& game = *games[input.Byte() % games.size()];
  absl::StatusOr<std::unique_ptr<State>> state = game.NewMatch(input.Uint64());
  Check(state.ok());
  ActionList legal;
  for (int moves = input.Byte(); moves > 0 && !(*state)->IsTerminal(); --moves) {
    legal.clear();
    (*state)->LegalActions(legal);
    Check(!legal.empty());
    (*state)->Apply(legal[input.Byte() % legal.size()]);
  }
  const int seat = input.Byte() % game.num_seats();
  const absl::string_view text = input.Rest();
  absl::StatusOr<Action> parsed = (*state)->ParseAction(text);
  if (parsed.ok()) {
    absl::StatusOr<Action> again = (*state)->ParseAction((*state)->ActionToString(*parsed));
    Check(again.ok() && *again == *parsed);
    (void)(*state)->ExplainIllegal(*parsed);
  }
  absl::StatusOr<Action> resolved = (*state)->ResolveAction(seat, text);
  if (resolved.ok()) Check(seat == (*state)->CurrentSeat() && (*state)->IsLegal(*resolved));
  return 0;
}
