// Eighty-Four — Forty-Two for a big table, with two double-6 sets.
//
// Rules as implemented (sheet 001 and the Eighty-Four ruling in shared/rules/README.md; every
// choice is written out in docs/rules/eighty_four.md). Sheet 001 says "use the rules to
// Forty-Two" with these changes, so this game IS Forty-Two's state (engine/games/forty_two/)
// played at a different table (forty_two::Table); only the table and the options offered
// differ:
//   * Two double-6 sets: 56 tiles. The second copy of a tile is written with a prime
//     ("6-4'"), in actions, records and views alike; tile ids 28..55 (engine/core/tile.h).
//   * players=8 (default): two teams of 4, 7 tiles each, 7 tricks of 8 tiles, 2 points a
//     trick. players=6: two teams of 3, 9 tiles each and 2 left out (hidden from everyone),
//     9 tricks of 6 tiles worth nothing, each double taken worth 1 (14 doubles).
//   * The counts of both sets, 70 points: every hand is worth 84 (70 + 14).
//   * Partners alternate round the table: teams are the even seats and the odd seats.
//   * Bids from 60 to 84, each higher than the last, every player bidding or passing once,
//     the shaker last; all pass → the next shaker reshuffles (option shaker_must_bid).
//   * Of two identical tiles in one trick the one played first ranks higher.
//   * Everything else as Forty-Two: trumps, following suit, scoring (made: each team scores
//     what it took; set: the bidders 0, the opponents the bid plus what they took), game to
//     250 (both past it on one hand → the bidding team wins) or scoring=marks.
//   * Options offered from Forty-Two's variants: doubles_trump and follow_me. Nello, plunge
//     and splash (built on one partner opposite) and mark bidding and sevens are not offered:
//     neither the sheet nor the rulings define them for eight or six players.
//
// Notation and action codes are Forty-Two's: "bid 60", "pass", "trump 4", "trump doubles",
// "trump none", a tile "6-4" or "6-4'" to play it (codes: the tile id, 0..55).
#ifndef BONEYARD_ENGINE_GAMES_EIGHTY_FOUR_EIGHTY_FOUR_H_
#define BONEYARD_ENGINE_GAMES_EIGHTY_FOUR_EIGHTY_FOUR_H_

#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "engine/games/forty_two/forty_two.h"

namespace boneyard::eighty_four {

// 8 players: 7 tiles and tricks each, 2 points a trick; 7 x 2 + 70 counts = 84.
inline constexpr forty_two::Table kEightPlayers{.seats = 8,
                                                .num_tiles = 2 * tricks::kSetTiles,
                                                .hand_size = 7,
                                                .trick_points = 2,
                                                .double_points = 0,
                                                .min_bid = 60,
                                                .hand_points = 84};
// 6 players: 9 tiles and tricks each, 2 left out; tricks nothing, 14 doubles x 1 + 70 = 84.
inline constexpr forty_two::Table kSixPlayers{.seats = 6,
                                              .num_tiles = 2 * tricks::kSetTiles,
                                              .hand_size = 9,
                                              .trick_points = 0,
                                              .double_points = 1,
                                              .min_bid = 60,
                                              .hand_points = 84};

GameSpec Spec();
// The heuristic and random bots are Forty-Two's, which read the table from the view.
void RegisterBots(BotRegistry& registry);

}  // namespace boneyard::eighty_four

#endif  // BONEYARD_ENGINE_GAMES_EIGHTY_FOUR_EIGHTY_FOUR_H_
