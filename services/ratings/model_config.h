// The Weng-Lin model's settings (model/weng_lin.h) as the schema's RatingModel and back. No
// gRPC, no database.
#ifndef BONEYARD_SERVICES_RATINGS_MODEL_CONFIG_H_
#define BONEYARD_SERVICES_RATINGS_MODEL_CONFIG_H_

#include "absl/status/statusor.h"
#include "boneyard/v1/ratings.pb.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings {

// `model` with its zero values replaced by OpenSkill's defaults (kind Plackett-Luce, mu 25,
// sigma mu/3, beta sigma/2, kappa 0.0001, tau 0), then checked with ValidateConfig:
// INVALID_ARGUMENT naming the field for a non-finite or non-positive sigma or beta, a
// negative or non-finite kappa or tau, a non-finite mu or an unknown kind.
absl::StatusOr<RatingModelConfig> ModelFromProto(const v1::RatingModel& model);

// Every field set (the defaults filled in).
v1::RatingModel ModelToProto(const RatingModelConfig& config);

// v1.RatingModel.Kind's number for `kind` (1..5), as stored.
int KindNumber(ModelKind kind);
// The inverse; INVALID_ARGUMENT for a number that is no kind.
absl::StatusOr<ModelKind> KindFromNumber(int number);

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_MODEL_CONFIG_H_
