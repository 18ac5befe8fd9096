// Every model kind, for the tests that run once per kind (TEST_P over kAllModelKinds).
#ifndef BONEYARD_TESTS_RATINGS_ALL_MODEL_KINDS_H_
#define BONEYARD_TESTS_RATINGS_ALL_MODEL_KINDS_H_

#include <string>

#include "gtest/gtest.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings {

inline constexpr ModelKind kAllModelKinds[] = {
    ModelKind::kPlackettLuce,           ModelKind::kThurstoneMostellerFull,
    ModelKind::kThurstoneMostellerPart, ModelKind::kBradleyTerryFull,
    ModelKind::kBradleyTerryPart,
};

// Test names read ".../plackett_luce" rather than ".../0".
inline std::string ModelKindTestName(const testing::TestParamInfo<ModelKind>& info) {
  return std::string(ModelKindName(info.param));
}

}  // namespace boneyard::ratings

#endif  // BONEYARD_TESTS_RATINGS_ALL_MODEL_KINDS_H_
