// The seeds of the bots a match runs, each derived from the match's seed (DeriveSeed), so every
// bot move of a match can be reproduced from its record: a built-in bot in seat s is seeded
// with DeriveSeed(seed, kBotSeedStream + s), the stand-in that plays for timed-out seats
// (the game's default bot) with DeriveSeed(seed, kStandInSeedStream), and the worlds a search
// bot samples for the move at event sequence q with DeriveSeed(seed, kWorldSeedStream + q).
// All streams are far above the rounds' (DeriveSeed(seed, round)).
#ifndef BONEYARD_SERVICES_EXECUTION_BOT_SEEDS_H_
#define BONEYARD_SERVICES_EXECUTION_BOT_SEEDS_H_

#include <cstdint>

namespace boneyard::execution {

inline constexpr uint64_t kBotSeedStream = 1'000'000;
inline constexpr uint64_t kStandInSeedStream = 2'000'000;
inline constexpr uint64_t kWorldSeedStream = uint64_t{1} << 32;

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_BOT_SEEDS_H_
