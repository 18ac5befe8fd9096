// The worlds a search bot may look at: states consistent with what one seat has seen, each
// with every tile hidden from that seat dealt anew at random (State::Determinize). The host
// builds them from the live state; a bot never receives the live state itself, so even a bot
// that read a world's hidden hands would find only a random deal.
//
// A world keeps the match's seed, and with it the shuffles of rounds not yet dealt: a search
// must stop at the end of the round it is in (SearchBot does).
#ifndef BONEYARD_ENGINE_BOTS_WORLDS_H_
#define BONEYARD_ENGINE_BOTS_WORLDS_H_

#include <cstdint>
#include <memory>

#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace boneyard {

class Worlds {
 public:
  virtual ~Worlds() = default;
  virtual int seat() const = 0;
  // A new world, drawn with `rng`.
  virtual std::unique_ptr<State> Sample(Rng& rng) const = 0;
};

// Worlds for `seat` of a state. It keeps one determinized copy, made when it is built (so the
// live state may move on while a bot thinks on another thread), and samples from that.
class SeatWorlds : public Worlds {
 public:
  SeatWorlds(const State& state, int seat, uint64_t seed) : seat_(seat) {
    Rng rng(seed);
    base_ = state.Determinize(seat, rng);
  }
  int seat() const override { return seat_; }
  std::unique_ptr<State> Sample(Rng& rng) const override { return base_->Determinize(seat_, rng); }

 private:
  int seat_;
  std::unique_ptr<State> base_;
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_BOTS_WORLDS_H_
