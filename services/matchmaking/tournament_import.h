// An event imported from a TRF-16 file (ImportTournament), decided as a pure function of the
// file, the settings and who the file's entrants are: what the store writes so that the event
// continues as if boneyard had paired its rounds. No gRPC, no SQL.
//
// How the file's facts become stored facts (so that EventRecordOf gives the file's record back,
// and the next round is paired as `boneyard tournament pair-next FILE` pairs it):
//   - Entrant i of the file is entrant number i and pairing number i (the file's TPNs are kept:
//     they are the initial ranking the rounds were paired from), rating and name from the file.
//   - Each game of a played round is a pairing whose result is an override (W/D/L read as 1/=/0;
//     a forfeit as the forfeit outcome); the side with 'w' is white (for a forfeit without
//     colours, the lower TPN). A 'U' is the round's pairing-allocated bye.
//   - 'H' is a half-point bye (Entrant.bye_rounds), 'Z' a zero-point one (zero_rounds), in a
//     played round or requested for one to come; a blank cell in a played round reads as 'Z'.
//   - An entrant absent from some round to the event's last ('Z' in every round to come, 'Z'
//     or blank in those played) withdrew then: so ExportTrf writes a withdrawal, and so
//     pair-next leaves it out. A blank round to come is a round to pair, as pair-next reads it.
//   - 'F' (a full-point bye not the pairing's) and points other than FIDE's have no place in a
//     boneyard event: refused, naming the entrant and the round.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_IMPORT_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_IMPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/pg_tournament_store.h"
#include "services/matchmaking/tournament/trf.h"

namespace boneyard::matchmaking {

// Who one of the file's entrants is: its players (seat order) or a serialized v1.Bot.
struct ImportedEntrantRow {
  std::vector<std::string> players;
  std::string bot;
  std::string fallback_name;  // the name when the file gives none
};

struct TournamentImport {
  TournamentRow tournament;
  std::vector<EntrantRow> entrants;
  TournamentChanges changes;  // rounds, pairings, audit
};

// `settings` are checked (CheckTournamentSettings) by the caller; `who[i]` is the file's
// entrant i + 1. INVALID_ARGUMENT naming the field ("trf", "entrants", "tournament.rounds") and,
// for the file, the entrant and round.
absl::StatusOr<TournamentImport> PlanImport(const std::string& tournament_id,
                                            const v1::Tournament& settings,
                                            const tournament::TrfFile& file,
                                            const std::vector<ImportedEntrantRow>& who,
                                            absl::Time now);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_IMPORT_H_
