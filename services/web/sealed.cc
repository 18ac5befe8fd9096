#include "services/web/sealed.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <memory>

#include "absl/status/status.h"
#include "services/common/tokens.h"

namespace boneyard::web {
namespace {

constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;
// What the key is for: the same secret keys other things differently.
constexpr absl::string_view kPurpose = "boneyard.web.sessions.v1";

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

unsigned char* Bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }
const unsigned char* Bytes(absl::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

Sealer::Sealer(absl::string_view secret) {
  key_.resize(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), Bytes(kPurpose),
       kPurpose.size(), Bytes(key_), &length);
  key_.resize(length);  // 32
}

std::string Sealer::Seal(absl::string_view plain) const {
  std::string out = RandomBytes(kNonceBytes);
  out.resize(kNonceBytes + plain.size() + kTagBytes);
  CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int written = 0;
  int final_written = 0;
  // Failures here mean the library itself is broken: a credential must never be stored clear.
  if (ctx == nullptr ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(absl::string_view(key_)),
                         Bytes(absl::string_view(out).substr(0, kNonceBytes))) != 1 ||
      EVP_EncryptUpdate(ctx.get(), Bytes(out) + kNonceBytes, &written, Bytes(plain),
                        static_cast<int>(plain.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), Bytes(out) + kNonceBytes + written, &final_written) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes,
                          Bytes(out) + kNonceBytes + plain.size()) != 1) {
    std::abort();
  }
  return out;
}

absl::StatusOr<std::string> Sealer::Open(absl::string_view sealed) const {
  if (sealed.size() < kNonceBytes + kTagBytes) {
    return absl::DataLossError("a sealed value is too short");
  }
  const absl::string_view nonce = sealed.substr(0, kNonceBytes);
  const absl::string_view body =
      sealed.substr(kNonceBytes, sealed.size() - kNonceBytes - kTagBytes);
  std::string tag(sealed.substr(sealed.size() - kTagBytes));
  std::string plain(body.size(), '\0');
  CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int written = 0;
  int final_written = 0;
  if (ctx == nullptr ||
      EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(absl::string_view(key_)),
                         Bytes(nonce)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), Bytes(plain), &written, Bytes(body),
                        static_cast<int>(body.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), Bytes(plain) + written, &final_written) != 1) {
    return absl::DataLossError(
        "a sealed value does not open: altered, or sealed under another key");
  }
  return plain;
}

}  // namespace boneyard::web
