#include "services/web/sessions.h"

#include <openssl/evp.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "pqxx/pqxx"
#include "services/common/tokens.h"

namespace boneyard::web {
namespace {

// Use is written back at most this often: a read per request, not a write.
constexpr absl::Duration kTouchEvery = absl::Minutes(1);

std::string IdHash(const std::string& id) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(id.data(), id.size(), digest, &size, EVP_sha256(), nullptr);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), size));
}

int64_t Micros(absl::Duration d) { return absl::ToInt64Microseconds(d); }

}  // namespace

SessionStore::SessionStore(PgPool& pool, std::string quoted_schema, absl::string_view secret,
                           absl::Duration idle_limit, int max_sessions)
    : pool_(pool),
      table_(absl::StrCat(quoted_schema, ".sessions")),
      sealer_(secret),
      idle_limit_(idle_limit),
      max_sessions_(max_sessions) {}

absl::StatusOr<std::string> SessionStore::Create(Session& session) {
  std::string id = NewSecretToken();
  session.csrf_token = NewSecretToken();
  // The audit log names an operator session by a prefix of its id: enough to
  // tell sessions apart, useless as a credential.
  session.actor = session.role == Role::kOperator ? absl::StrCat("operator:", id.substr(0, 8))
                                                  : absl::StrCat("player:", session.player_id);
  const std::string sealed = sealer_.Seal(session.credential);
  absl::Status stored = pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("DELETE FROM ", table_,
                                 " WHERE last_used < now() - $1 * interval '1 microsecond'"),
                    Micros(idle_limit_));
    // Past the cap the least recently used go.
    tx.exec_params0(absl::StrCat("DELETE FROM ", table_, " WHERE id_hash IN (SELECT id_hash FROM ",
                                 table_, " ORDER BY last_used DESC OFFSET $1)"),
                    max_sessions_ - 1);
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", table_,
                     " (id_hash, role, player_id, display_name, credential, csrf_token, actor,"
                     " last_used) VALUES ($1, $2, $3, $4, $5, $6, $7, now())"),
        IdHash(id), static_cast<int>(session.role), session.player_id, session.display_name,
        pqxx::binarystring(sealed), session.csrf_token, session.actor);
  });
  if (!stored.ok()) return stored;
  return id;
}

absl::StatusOr<std::optional<Session>> SessionStore::Find(const std::string& id) {
  const std::string hash = IdHash(id);
  struct Row {
    Session session;
    std::string sealed;
  };
  absl::StatusOr<std::optional<Row>> found = pool_.Run([&](pqxx::work& tx) -> std::optional<Row> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT role, player_id, display_name, credential, csrf_token, actor,"
                     " now() - last_used > $2 * interval '1 microsecond',"
                     " now() - last_used > $3 * interval '1 microsecond' FROM ",
                     table_, " WHERE id_hash = $1"),
        hash, Micros(idle_limit_), Micros(kTouchEvery));
    if (rows.empty()) return std::nullopt;
    const pqxx::row& row = rows[0];
    if (row[6].as<bool>()) {  // idle too long: it ends
      tx.exec_params0(absl::StrCat("DELETE FROM ", table_, " WHERE id_hash = $1"), hash);
      return std::nullopt;
    }
    if (row[7].as<bool>()) {
      tx.exec_params0(absl::StrCat("UPDATE ", table_, " SET last_used = now() WHERE id_hash = $1"),
                      hash);
    }
    Row out;
    out.session.role = static_cast<Role>(row[0].as<int>());
    out.session.player_id = row[1].as<std::string>();
    out.session.display_name = row[2].as<std::string>();
    out.sealed = pqxx::binarystring(row[3]).str();
    out.session.csrf_token = row[4].as<std::string>();
    out.session.actor = row[5].as<std::string>();
    return out;
  });
  if (!found.ok()) return found.status();
  if (!found->has_value()) return std::nullopt;
  // Sealed under another operator token (it changed): as good as signed out.
  absl::StatusOr<std::string> credential = sealer_.Open((*found)->sealed);
  if (!credential.ok()) return std::nullopt;
  Session session = std::move((*found)->session);
  session.credential = *std::move(credential);
  return session;
}

absl::Status SessionStore::End(const std::string& id) {
  return pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("DELETE FROM ", table_, " WHERE id_hash = $1"), IdHash(id));
  });
}

absl::StatusOr<int> SessionStore::size() {
  return pool_.Run([&](pqxx::work& tx) {
    return tx.exec1(absl::StrCat("SELECT count(*) FROM ", table_))[0].as<int>();
  });
}

}  // namespace boneyard::web
