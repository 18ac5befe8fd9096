// Actions as the engine sees them: a game-specific 32-bit code. The text notation
// (docs/notation.md) is what everything outside the engine uses; a State converts both ways.
#ifndef BONEYARD_ENGINE_CORE_ACTION_H_
#define BONEYARD_ENGINE_CORE_ACTION_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

namespace boneyard {

using Action = uint32_t;

// Legal actions are written into a caller's fixed buffer, so listing them allocates nothing.
class ActionList {
 public:
  static constexpr int kCapacity = 1024;

  void clear() { size_ = 0; }
  void push_back(Action a) {
    if (size_ >= kCapacity) {
      std::fputs("boneyard: ActionList overflow\n", stderr);
      std::abort();
    }
    actions_[size_++] = a;
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Action operator[](int i) const { return actions_[i]; }
  const Action* begin() const { return actions_; }
  const Action* end() const { return actions_ + size_; }
  std::span<const Action> span() const { return {actions_, static_cast<size_t>(size_)}; }
  bool Contains(Action a) const {
    for (int i = 0; i < size_; ++i) {
      if (actions_[i] == a) return true;
    }
    return false;
  }

 private:
  int size_ = 0;
  Action actions_[kCapacity];
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_ACTION_H_
