#include "services/ratings/model_config.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace boneyard::ratings {

int KindNumber(ModelKind kind) {
  switch (kind) {
    case ModelKind::kPlackettLuce:
      return v1::RatingModel::PLACKETT_LUCE;
    case ModelKind::kThurstoneMostellerFull:
      return v1::RatingModel::THURSTONE_MOSTELLER_FULL;
    case ModelKind::kThurstoneMostellerPart:
      return v1::RatingModel::THURSTONE_MOSTELLER_PART;
    case ModelKind::kBradleyTerryFull:
      return v1::RatingModel::BRADLEY_TERRY_FULL;
    case ModelKind::kBradleyTerryPart:
      return v1::RatingModel::BRADLEY_TERRY_PART;
  }
  return v1::RatingModel::PLACKETT_LUCE;
}

absl::StatusOr<ModelKind> KindFromNumber(int number) {
  switch (number) {
    case v1::RatingModel::KIND_UNSPECIFIED:
    case v1::RatingModel::PLACKETT_LUCE:
      return ModelKind::kPlackettLuce;
    case v1::RatingModel::THURSTONE_MOSTELLER_FULL:
      return ModelKind::kThurstoneMostellerFull;
    case v1::RatingModel::THURSTONE_MOSTELLER_PART:
      return ModelKind::kThurstoneMostellerPart;
    case v1::RatingModel::BRADLEY_TERRY_FULL:
      return ModelKind::kBradleyTerryFull;
    case v1::RatingModel::BRADLEY_TERRY_PART:
      return ModelKind::kBradleyTerryPart;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("model.kind: ", number, " is not a RatingModel.Kind"));
  }
}

absl::StatusOr<RatingModelConfig> ModelFromProto(const v1::RatingModel& model) {
  RatingModelConfig config;
  absl::StatusOr<ModelKind> kind = KindFromNumber(model.kind());
  if (!kind.ok()) return kind.status();
  config.kind = *kind;
  // Zero means the default; anything else (NaN and negatives too) is taken as given and
  // left to ValidateConfig.
  if (model.mu() != 0) config.mu = model.mu();
  config.sigma = model.sigma() != 0 ? model.sigma() : config.mu / 3.0;
  config.beta = model.beta() != 0 ? model.beta() : config.sigma / 2.0;
  if (model.kappa() != 0) config.kappa = model.kappa();
  config.tau = model.tau();
  config.limit_sigma = model.limit_sigma();
  if (absl::Status s = ValidateConfig(config); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("model: ", s.message()));
  }
  return config;
}

v1::RatingModel ModelToProto(const RatingModelConfig& config) {
  v1::RatingModel out;
  out.set_kind(static_cast<v1::RatingModel::Kind>(KindNumber(config.kind)));
  out.set_mu(config.mu);
  out.set_sigma(config.sigma);
  out.set_beta(config.beta);
  out.set_kappa(config.kappa);
  out.set_tau(config.tau);
  out.set_limit_sigma(config.limit_sigma);
  return out;
}

}  // namespace boneyard::ratings
