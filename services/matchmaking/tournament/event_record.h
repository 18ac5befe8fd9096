// The record of a two-sided event (a Swiss, a round robin, or a knockout's matches): who the
// entrants are and what each did in each round. It is what every pairing, standings and TRF-16
// routine reads, so it holds exactly what FIDE's Tournament Report File records for a player —
// opponent, colour and result per round — plus the points scheme and the event's settings.
//
// Vocabulary follows the FIDE handbook (C.04, C.07): an entrant is a player or a fixed team; its
// TPN (tournament pairing number) is its place in the initial ranking, 1-based; "white" is the
// side that plays first in a match's first hand (the Dutch system's colour rules apply to it).
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_EVENT_RECORD_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_EVENT_RECORD_H_

#include <string>
#include <utility>
#include <vector>

namespace boneyard::tournament {

enum class Colour : signed char { kNone = 0, kWhite = 1, kBlack = 2 };

inline Colour Opposite(Colour c) {
  return c == Colour::kWhite ? Colour::kBlack
                             : (c == Colour::kBlack ? Colour::kWhite : Colour::kNone);
}

// One entrant's round, as TRF-16's result codes have it.
enum class RoundCode : unsigned char {
  kNone,         // ' ': nothing recorded (not yet played, or not in the event then)
  kWin,          // '1' (or 'W': played, not rated)
  kDraw,         // '=' (or 'D')
  kLoss,         // '0' (or 'L')
  kForfeitWin,   // '+': paired, the opponent did not play
  kForfeitLoss,  // '-': paired, did not play
  kPairingBye,   // 'U': the pairing-allocated bye
  kFullBye,      // 'F': a full-point bye (not the pairing's)
  kHalfBye,      // 'H': a requested half-point bye
  kZeroBye,      // 'Z': a zero-point bye (absent, known in advance)
};

// True for the codes of a game that was played over the board (colours count, C.04.2 3.4).
inline bool IsPlayed(RoundCode code) {
  return code == RoundCode::kWin || code == RoundCode::kDraw || code == RoundCode::kLoss;
}

// True for the codes of a round an entrant was paired against an opponent (played or forfeit).
inline bool IsPaired(RoundCode code) {
  return IsPlayed(code) || code == RoundCode::kForfeitWin || code == RoundCode::kForfeitLoss;
}

struct RoundEntry {
  int opponent = 0;  // the opponent's TPN; 0 for none
  Colour colour = Colour::kNone;
  RoundCode code = RoundCode::kNone;
  bool rated = true;       // false for TRF's W, D, L (played, not rated)
  double game_points = 0;  // team events: the points this entrant's games scored in the round
};

// Points per result; FIDE's defaults. TRF-16 files carry other schemes in XXS/BB* lines.
struct PointSystem {
  double win = 1;
  double draw = 0.5;
  double loss = 0;
  double forfeit_win = 1;
  double forfeit_loss = 0;
  double pairing_bye = 1;
  double full_bye = 1;
  double half_bye = 0.5;
  double zero_bye = 0;

  double PointsFor(RoundCode code) const {
    switch (code) {
      case RoundCode::kNone:
        return 0;
      case RoundCode::kWin:
        return win;
      case RoundCode::kDraw:
        return draw;
      case RoundCode::kLoss:
        return loss;
      case RoundCode::kForfeitWin:
        return forfeit_win;
      case RoundCode::kForfeitLoss:
        return forfeit_loss;
      case RoundCode::kPairingBye:
        return pairing_bye;
      case RoundCode::kFullBye:
        return full_bye;
      case RoundCode::kHalfBye:
        return half_bye;
      case RoundCode::kZeroBye:
        return zero_bye;
    }
    return 0;
  }
};

// TRF-16's player fields that pairing does not read, kept so an import exports unchanged.
struct TrfPlayerFields {
  std::string sex;         // col 10
  std::string title;       // cols 11-13
  std::string federation;  // cols 54-56
  std::string fide_id;     // cols 58-68
  std::string birth_date;  // cols 70-79
};

struct Entrant {
  int tpn = 0;
  std::string name;
  int rating = 0;
  // rounds[r - 1] is round r. Entries past the rounds played are requests made in advance
  // (an 'H' or 'Z' for the round to be paired marks the entrant absent from it).
  std::vector<RoundEntry> rounds;
  bool withdrawn = false;  // never paired again
  TrfPlayerFields trf;
};

struct EventRecord {
  std::string name;
  int total_rounds = 0;                    // TRF XXR
  Colour initial_colour = Colour::kWhite;  // TRF XXC: the colour TPN 1's side gets in round 1
  PointSystem points;
  std::vector<Entrant> entrants;                     // entrants[tpn - 1]
  std::vector<std::pair<int, int>> forbidden_pairs;  // TPN pairs never to be paired

  const Entrant& ByTpn(int tpn) const { return entrants[tpn - 1]; }
  Entrant& ByTpn(int tpn) { return entrants[tpn - 1]; }
};

// One board of a round: white plays first; black == 0 means white has the pairing-allocated bye.
struct Board {
  int white = 0;
  int black = 0;
  bool operator==(const Board&) const = default;
};

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_EVENT_RECORD_H_
