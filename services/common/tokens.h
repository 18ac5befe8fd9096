// Secrets and who holds them, with no gRPC: random bytes and tokens from the OS's CSPRNG, a
// constant-time comparison, and the Authenticator that tells the operator's and services' tokens
// from the rest. Services' logic classes (which know no gRPC) use this directly; auth.h adds the
// gRPC side (reading the bearer token of a call).
#ifndef BONEYARD_SERVICES_COMMON_TOKENS_H_
#define BONEYARD_SERVICES_COMMON_TOKENS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace boneyard {

// `count` bytes from the operating system's CSPRNG (getrandom, or /dev/urandom where getrandom
// is missing). Aborts the process if the operating system has no randomness to give: a
// guessable id or token is worse.
std::string RandomBytes(std::size_t count);

// Compares two tokens in time that depends only on the length of `a` (pass the presented
// token as `a`), never on where they first differ.
bool TokensEqual(absl::string_view a, absl::string_view b);

// A fresh secret: 32 bytes of RandomBytes as 43 characters of unpadded base64url, never
// starting with '-' (so it can follow a command-line flag).
std::string NewSecretToken();

struct AuthConfig {
  std::string operator_token;
  std::vector<std::string> service_tokens;
};

class Authenticator {
 public:
  enum class Role {
    kNone,      // no token
    kOperator,  // the operator token
    kService,   // one of the service tokens
    kOther,     // a token that is neither: the service decides whether it knows it
  };

  // An empty operator token or service token in the config matches nothing.
  explicit Authenticator(AuthConfig config);

  Role Classify(const std::optional<std::string>& token) const;

  // For calls that need the operator token:
  //   the operator token                               OK
  //   no token                                         UNAUTHENTICATED "missing bearer token"
  //   a service token, or a token known elsewhere      PERMISSION_DENIED
  //     (token_known_elsewhere: e.g. a seat token)       "this call needs the operator token"
  //   any other token                                  UNAUTHENTICATED "unknown token"
  absl::Status RequireOperator(const std::optional<std::string>& token,
                               bool token_known_elsewhere) const;

 private:
  AuthConfig config_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_TOKENS_H_
