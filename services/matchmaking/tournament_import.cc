#include "services/matchmaking/tournament_import.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {
namespace {

namespace t = ::boneyard::tournament;

absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// "trf: entrant 3, round 2: ..." — the file's coordinates, as an arbiter finds them.
absl::Status InvalidCell(int tpn, int round, absl::string_view why) {
  return Invalid("trf", absl::StrCat("entrant ", tpn, ", round ", round, ": ", why));
}

bool SamePoints(const t::PointSystem& a, const t::PointSystem& b) {
  return a.win == b.win && a.draw == b.draw && a.loss == b.loss && a.forfeit_win == b.forfeit_win &&
         a.forfeit_loss == b.forfeit_loss && a.pairing_bye == b.pairing_bye &&
         a.full_bye == b.full_bye && a.half_bye == b.half_bye && a.zero_bye == b.zero_bye;
}

// The outcome of a game from white's point of view, given both sides' codes.
v1::Outcome OutcomeOf(t::RoundCode white, t::RoundCode black) {
  switch (white) {
    case t::RoundCode::kWin:
      return v1::WHITE_WON;
    case t::RoundCode::kLoss:
      return v1::BLACK_WON;
    case t::RoundCode::kDraw:
      return v1::DRAWN;
    case t::RoundCode::kForfeitWin:
      return v1::BLACK_FORFEITED;
    default:
      return black == t::RoundCode::kForfeitWin ? v1::WHITE_FORFEITED : v1::BOTH_FORFEITED;
  }
}

// One entrant's cells: its absences (half/zero-point byes, withdrawal) into `row`. Pairings
// are read separately, once per game.
absl::Status ReadAbsences(const t::Entrant& e, int played, int rounds, EntrantRow& row) {
  auto code_at = [&](int r) {
    return r <= static_cast<int>(e.rounds.size()) ? e.rounds[r - 1].code : t::RoundCode::kNone;
  };
  // Withdrawn from round k: absent from k to the event's last round — a 'Z' in every round to
  // come, and a 'Z' or a blank in every round played. (A blank round to come is a round to
  // pair, as pair-next reads it.)
  for (int r = rounds + 1; r <= static_cast<int>(e.rounds.size()); ++r) {
    if (code_at(r) != t::RoundCode::kNone) {
      return InvalidCell(e.tpn, r, absl::StrCat("is past the event's ", rounds, " rounds"));
    }
  }
  int withdrawn = 0;
  for (int r = rounds; r >= 1; --r) {
    const t::RoundCode code = code_at(r);
    const bool absent =
        code == t::RoundCode::kZeroBye || (r <= played && code == t::RoundCode::kNone);
    if (!absent) break;
    withdrawn = r;
  }
  for (int r = 1; r <= rounds && (withdrawn == 0 || r < withdrawn); ++r) {
    switch (code_at(r)) {
      case t::RoundCode::kFullBye:
        return InvalidCell(e.tpn, r,
                           "a full-point bye (F) has no place in a boneyard event; enter it as "
                           "a forfeit win or a half-point bye");
      case t::RoundCode::kHalfBye:
        row.bye_rounds.push_back(r);
        break;
      case t::RoundCode::kZeroBye:
        row.zero_rounds.push_back(r);
        break;
      case t::RoundCode::kNone:
        if (r <= played) row.zero_rounds.push_back(r);
        break;
      default:
        break;
    }
  }
  row.withdrawn_round = withdrawn;
  return absl::OkStatus();
}

// The played rounds' pairings: each game once (from the side listed first by TPN), the
// pairing-allocated bye last, boards by the higher-ranked side.
std::vector<PairingRow> ReadPairings(const t::EventRecord& event, int played) {
  std::vector<PairingRow> out;
  for (int r = 1; r <= played; ++r) {
    std::vector<PairingRow> boards;
    std::vector<PairingRow> byes;
    for (const t::Entrant& e : event.entrants) {
      if (static_cast<int>(e.rounds.size()) < r) continue;
      const t::RoundEntry& cell = e.rounds[r - 1];
      if (cell.code == t::RoundCode::kPairingBye) {
        PairingRow& bye = byes.emplace_back();
        bye.round = r;
        bye.white = e.tpn;
        bye.override_outcome = v1::BYE;
        continue;
      }
      if (!t::IsPaired(cell.code) || cell.opponent < e.tpn) continue;
      const t::Entrant& o = event.ByTpn(cell.opponent);
      const t::RoundEntry& other = o.rounds[r - 1];
      // The side with white is white; a forfeit with no colours puts the higher-ranked first.
      const bool e_white = cell.colour == t::Colour::kWhite ||
                           (cell.colour == t::Colour::kNone && other.colour != t::Colour::kWhite);
      const t::RoundEntry& w = e_white ? cell : other;
      const t::RoundEntry& b = e_white ? other : cell;
      PairingRow& board = boards.emplace_back();
      board.round = r;
      board.white = e_white ? e.tpn : o.tpn;
      board.black = e_white ? o.tpn : e.tpn;
      board.override_outcome = OutcomeOf(w.code, b.code);
    }
    boards.insert(boards.end(), byes.begin(), byes.end());
    for (PairingRow& p : boards) {
      p.board = static_cast<int>(&p - boards.data()) + 1;
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<TournamentImport> PlanImport(const std::string& tournament_id,
                                            const v1::Tournament& settings, const t::TrfFile& file,
                                            const std::vector<ImportedEntrantRow>& who,
                                            absl::Time now) {
  const t::EventRecord& event = file.event;
  if (settings.format() != v1::Tournament::SWISS) {
    return Invalid("tournament.format", "only a SWISS continues from a TRF file");
  }
  if (settings.table_size() != 0) {
    return Invalid("tournament.table_size", "a TRF file records two-sided events, not tables");
  }
  if (settings.has_registration_close_time()) {
    return Invalid("tournament.registration_close_time", "an imported event takes no late entries");
  }
  const int n = static_cast<int>(event.entrants.size());
  if (n < 2) return Invalid("trf", absl::StrCat("has ", n, " entrants; an event needs two"));
  const int max_entrants =
      settings.max_entrants() > 0 ? settings.max_entrants() : kMaxTournamentEntrants;
  if (n > max_entrants) {
    return Invalid("trf", absl::StrCat("has ", n, " entrants; the event takes ", max_entrants));
  }
  if (static_cast<int>(who.size()) != n) {
    return Invalid("entrants", absl::StrCat(who.size(), " given for the file's ", n));
  }
  if (!SamePoints(event.points, t::PointSystem{})) {
    return Invalid("trf", "its points (XXS/BB* lines) are not FIDE's 1, 1/2, 0");
  }
  const int played = t::RoundsPlayed(event);
  const int rounds = settings.rounds() > 0 ? settings.rounds() : event.total_rounds;
  if (rounds == 0) {
    return Invalid("tournament.rounds", "the file has no XXR line: say how many rounds");
  }
  if (rounds > kMaxSwissRounds) {
    return Invalid("tournament.rounds", absl::StrCat(rounds, " is more than ", kMaxSwissRounds));
  }
  if (rounds < played) {
    return Invalid("tournament.rounds",
                   absl::StrCat(rounds, " is fewer than the file's ", played, " rounds played"));
  }

  TournamentImport out;
  v1::Tournament stored = settings;
  stored.set_rounds(rounds);
  stored.set_initial_colour_black(event.initial_colour == t::Colour::kBlack);
  for (const auto& [a, b] : event.forbidden_pairs) {
    const ImportedEntrantRow& x = who[a - 1];
    const ImportedEntrantRow& y = who[b - 1];
    if (x.players.empty() || y.players.empty()) {
      return Invalid("trf", absl::StrCat("XXP: entrants ", a, " and ", b,
                                         " may not meet, but a bot entrant has no player id to "
                                         "keep them apart by"));
    }
    v1::ForbiddenPair& pair = *stored.add_forbidden_pairs();
    pair.set_first(x.players.front());
    pair.set_second(y.players.front());
  }

  for (const t::Entrant& e : event.entrants) {
    const ImportedEntrantRow& w = who[e.tpn - 1];
    EntrantRow row;
    row.number = e.tpn;
    row.pairing_number = e.tpn;
    row.first_round = 1;
    row.display_name = std::string(absl::StripAsciiWhitespace(e.name));
    if (row.display_name.empty()) row.display_name = w.fallback_name;
    row.players = w.players;
    row.bot = w.bot;
    row.rating = e.rating;
    row.register_time = now;
    if (absl::Status s = ReadAbsences(e, played, rounds, row); !s.ok()) return s;
    out.entrants.push_back(std::move(row));
  }

  out.tournament.tournament_id = tournament_id;
  out.tournament.game = stored.game();
  out.tournament.settings = stored.SerializeAsString();
  out.tournament.state = played == rounds ? kTournamentFinished : kTournamentRunning;
  out.tournament.current_round = played;
  out.tournament.rounds = rounds;
  out.tournament.create_time = now;
  out.tournament.start_time = now;
  if (played == rounds) out.tournament.end_time = now;

  for (int r = 1; r <= played; ++r)
    out.changes.new_rounds.push_back({.round = r, .start_time = now});
  out.changes.new_pairings = ReadPairings(event, played);
  out.changes.audit.push_back(
      {"operator", "import",
       absl::StrCat(n, " entrants and ", played, " rounds from a TRF file",
                    event.name.empty() ? "" : absl::StrCat(" (\"", event.name, "\")"))});
  return out;
}

}  // namespace boneyard::matchmaking
