// Fuzz target: the TRF-16 reader, and the Dutch system and fast mode on whatever it accepts —
// files an arbiter or another pairing program hands to `boneyard tournament`.
//
// Input: a TRF file's text. Properties: nothing crashes; writing what was read and reading it
// again writes the same text; a pairing, when one is made, seats every entrant present exactly
// once and nobody absent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>

#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/fast_swiss.h"
#include "services/matchmaking/tournament/swiss_state.h"
#include "services/matchmaking/tournament/trf.h"

namespace {

using namespace boneyard::tournament;

void CheckPairing(const EventRecord& event, int round, const std::vector<Board>& boards) {
  std::set<int> seated;
  for (const Board& b : boards) {
    if (!seated.insert(b.white).second) std::abort();
    if (b.black != 0 && !seated.insert(b.black).second) std::abort();
  }
  for (const Entrant& e : event.entrants) {
    if (ToBePaired(e, round) != (seated.count(e.tpn) > 0)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<TrfFile> file = ParseTrfFile(text);
  if (!file.ok()) return 0;
  const std::string written = WriteTrf(*file);
  absl::StatusOr<TrfFile> again = ParseTrfFile(written);
  if (!again.ok() || WriteTrf(*again) != written) std::abort();
  // Pair the next round of small events (the exact pairing is cubic in the field).
  const EventRecord& event = file->event;
  const int round = RoundsPlayed(event) + 1;
  if (event.entrants.size() > 40 || round > 30 || event.total_rounds < round) return 0;
  for (auto pair : {PairDutchRound, PairFastSwissRound}) {
    absl::StatusOr<std::vector<Board>> boards = pair(event, round);
    if (boards.ok()) CheckPairing(event, round, *boards);
  }
  return 0;
}
