# Compiles a service's numbered SQL migrations into its binary, so it needs no source tree at
# run time:
#
#   include(${PROJECT_SOURCE_DIR}/services/common/embed_migrations.cmake)
#   boneyard_embed_migrations(
#     OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/execution_migrations.cc
#     DIR ${CMAKE_CURRENT_SOURCE_DIR}/migrations
#     FUNCTION boneyard::execution::ExecutionMigrations)
#   add_library(boneyard_execution ... ${CMAKE_CURRENT_BINARY_DIR}/execution_migrations.cc)
#
# OUTPUT is generated at build time and defines
#
#   namespace boneyard::execution {
#   std::vector<boneyard::Migration> ExecutionMigrations();  // declare it in a header of yours
#   }
#
# returning every NNNN_name.sql file of DIR in version order, with its version, file name and
# exact bytes (written as \xNN escapes, so no SQL text can end the literal early). The names are
# checked as LoadMigrations checks them (services/common/migrations.h): a *.sql file not named
# NNNN_name.sql, two files with one version, versions not starting at 1 or a gap fail the build.
# Editing a file regenerates OUTPUT; adding or removing one re-runs CMake's configure step (the
# glob is CONFIGURE_DEPENDS) and then regenerates it. The target compiling OUTPUT must link
# boneyard_pg (for services/common/migrations.h).
#
# The same file is the generator: the build runs it with `cmake -P` and the BONEYARD_EMBED_*
# variables set.

if(NOT CMAKE_SCRIPT_MODE_FILE)
  set(_BONEYARD_EMBED_MIGRATIONS_SCRIPT ${CMAKE_CURRENT_LIST_FILE})

  function(boneyard_embed_migrations)
    cmake_parse_arguments(PARSE_ARGV 0 ARG "" "OUTPUT;DIR;FUNCTION" "")
    if(ARG_UNPARSED_ARGUMENTS)
      message(FATAL_ERROR "boneyard_embed_migrations: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
    endif()
    foreach(_arg OUTPUT DIR FUNCTION)
      if(NOT ARG_${_arg})
        message(FATAL_ERROR "boneyard_embed_migrations: ${_arg} is required")
      endif()
    endforeach()
    if(NOT ARG_FUNCTION MATCHES "^([A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR
        "boneyard_embed_migrations: FUNCTION '${ARG_FUNCTION}' is not a C++ qualified name")
    endif()
    if(NOT IS_DIRECTORY ${ARG_DIR})
      message(FATAL_ERROR "boneyard_embed_migrations: migrations folder ${ARG_DIR} does not exist")
    endif()

    file(GLOB _sql_files CONFIGURE_DEPENDS ${ARG_DIR}/*.sql)
    add_custom_command(
      OUTPUT ${ARG_OUTPUT}
      COMMAND ${CMAKE_COMMAND}
        -DBONEYARD_EMBED_OUTPUT=${ARG_OUTPUT}
        -DBONEYARD_EMBED_DIR=${ARG_DIR}
        -DBONEYARD_EMBED_FUNCTION=${ARG_FUNCTION}
        -P ${_BONEYARD_EMBED_MIGRATIONS_SCRIPT}
      DEPENDS ${_sql_files} ${_BONEYARD_EMBED_MIGRATIONS_SCRIPT}
      COMMENT "Embedding the SQL migrations of ${ARG_DIR}"
      VERBATIM)
  endfunction()

  return()
endif()

# ----- Script mode: write BONEYARD_EMBED_OUTPUT -----------------------------------------------

foreach(_var BONEYARD_EMBED_OUTPUT BONEYARD_EMBED_DIR BONEYARD_EMBED_FUNCTION)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "embed_migrations.cmake: -D${_var}=... is required")
  endif()
endforeach()

file(GLOB _files RELATIVE ${BONEYARD_EMBED_DIR} ${BONEYARD_EMBED_DIR}/*.sql)
set(_versions "")
foreach(_file IN LISTS _files)
  if(IS_DIRECTORY ${BONEYARD_EMBED_DIR}/${_file})
    continue()
  endif()
  # The rule of LoadMigrations: 1 to 9 digits, '_', then letters, digits, '_' or '-'.
  if(NOT _file MATCHES "^([0-9]+)_[A-Za-z0-9_-]+\\.sql$")
    message(FATAL_ERROR "bad migration file name ${BONEYARD_EMBED_DIR}/${_file}: migration files "
      "are named NNNN_name.sql: a version number, '_', then letters, digits, '_' or '-'")
  endif()
  set(_digits ${CMAKE_MATCH_1})
  string(LENGTH ${_digits} _length)
  if(_length GREATER 9)
    message(FATAL_ERROR "bad migration file name ${BONEYARD_EMBED_DIR}/${_file}: more than 9 "
      "digits of version")
  endif()
  # "0002" and "2" are one version.
  string(REGEX REPLACE "^0+" "" _version "${_digits}")
  if(_version STREQUAL "")
    set(_version 0)
  endif()
  if(_version EQUAL 0)
    message(FATAL_ERROR "migrations must start at version 1, but ${_file} has version 0")
  endif()
  if(DEFINED _file_of_${_version})
    message(FATAL_ERROR "two migrations have version ${_version}: ${_file_of_${_version}} and "
      "${_file}")
  endif()
  set(_file_of_${_version} ${_file})
  list(APPEND _versions ${_version})
endforeach()

list(LENGTH _versions _count)
set(_entries "")
if(_count GREATER 0)
  foreach(_version RANGE 1 ${_count})
    if(NOT DEFINED _file_of_${_version})
      list(SORT _versions COMPARE NATURAL)
      list(JOIN _versions ", " _found)
      message(FATAL_ERROR "migration version ${_version} is missing in ${BONEYARD_EMBED_DIR} "
        "(versions found: ${_found})")
    endif()
    set(_file ${_file_of_${_version}})
    file(READ ${BONEYARD_EMBED_DIR}/${_file} _hex HEX)
    # Every byte as \xNN, 24 bytes to a line. Each escape is followed by a backslash or a
    # closing quote, so no escape can swallow the next character. (A file whose length is a
    # multiple of 24 bytes ends in an empty "" piece: harmless.)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" _escaped "${_hex}")
    string(REPEAT "\\\\x[0-9a-f][0-9a-f]" 24 _line)
    string(REGEX REPLACE "(${_line})" "\\1\"\n      \"" _escaped "${_escaped}")
    string(LENGTH "${_hex}" _hex_length)
    math(EXPR _size "${_hex_length} / 2")
    string(APPEND _entries
      "  {\n"
      "    static constexpr char kSql[] =\n"
      "      \"${_escaped}\";\n"
      "    migrations.push_back({${_version}, \"${_file}\", std::string(kSql, ${_size})});\n"
      "  }\n")
  endforeach()
endif()

string(REGEX MATCH "^(.*)::([^:]+)$" _qualified "${BONEYARD_EMBED_FUNCTION}")
if(_qualified)
  set(_namespace ${CMAKE_MATCH_1})
  set(_name ${CMAKE_MATCH_2})
  set(_open "namespace ${_namespace} {\n")
  set(_close "}  // namespace ${_namespace}\n")
else()
  set(_name ${BONEYARD_EMBED_FUNCTION})
  set(_open "")
  set(_close "")
endif()

set(_source
"// Generated by services/common/embed_migrations.cmake from ${BONEYARD_EMBED_DIR}.
// Do not edit: edit or add the .sql files instead.
#include <string>
#include <vector>

#include \"services/common/migrations.h\"

${_open}
std::vector<::boneyard::Migration> ${_name}();

std::vector<::boneyard::Migration> ${_name}() {
  std::vector<::boneyard::Migration> migrations;
  migrations.reserve(${_count});
${_entries}  return migrations;
}

${_close}")

file(WRITE ${BONEYARD_EMBED_OUTPUT} "${_source}")
