// Secrets kept where others can read them (the sessions table): sealed with AES-256-GCM under a
// key derived from a secret the readers lack (HMAC-SHA256 of it), a fresh 96-bit nonce each
// time. Opening checks the tag, so a sealed value altered or sealed under another key is
// refused rather than read wrong.
//
//   Sealer sealer(operator_token);
//   std::string sealed = sealer.Seal(player_token);
//   absl::StatusOr<std::string> token = sealer.Open(sealed);
#ifndef BONEYARD_SERVICES_WEB_SEALED_H_
#define BONEYARD_SERVICES_WEB_SEALED_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace boneyard::web {

class Sealer {
 public:
  explicit Sealer(absl::string_view secret);

  // nonce (12 bytes) + ciphertext + tag (16 bytes).
  std::string Seal(absl::string_view plain) const;
  // DATA_LOSS when `sealed` is malformed, altered, or sealed under another key.
  absl::StatusOr<std::string> Open(absl::string_view sealed) const;

 private:
  std::string key_;  // 32 bytes
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_SEALED_H_
