// Values read back from PostgreSQL result fields the way the stores read them: bytea as bytes,
// and one-dimensional text arrays as strings. (pg_text.h is the other direction: values written
// as text parameters.)
#ifndef BONEYARD_SERVICES_COMMON_PG_FIELDS_H_
#define BONEYARD_SERVICES_COMMON_PG_FIELDS_H_

#include <pqxx/pqxx>

#include <string>
#include <tuple>
#include <vector>

namespace boneyard::pg_fields {

// A bytea column's bytes; empty for NULL.
inline std::string Bytes(const pqxx::field& f) {
  return f.is_null() ? std::string() : pqxx::binarystring(f).str();
}

// The elements of a one-dimensional text array column, in order (NULL elements, and a NULL
// array, give none).
inline std::vector<std::string> Strings(const pqxx::field& f) {
  std::vector<std::string> out;
  if (f.is_null()) return out;
  pqxx::array_parser parser = f.as_array();
  for (auto [juncture, value] = parser.get_next(); juncture != pqxx::array_parser::done;
       std::tie(juncture, value) = parser.get_next()) {
    if (juncture == pqxx::array_parser::string_value) out.push_back(value);
  }
  return out;
}

}  // namespace boneyard::pg_fields

#endif  // BONEYARD_SERVICES_COMMON_PG_FIELDS_H_
