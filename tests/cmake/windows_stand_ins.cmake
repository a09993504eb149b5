# sluice_windows_stand_in(<target> <source> <reason> [SUITES <suite>...]):
# for a test file that
# does not compile for Windows (it needs fork, pipes, /proc, Linux's own
# calls...). A Windows build compiles into <target>, in its place, a
# generated file with one test per suite of <source>, named
# <suite>.not_built_for_windows, that skips saying
# "not on Windows: tests/<source> is not built there: <reason>"; so the
# suite still shows in the test list and in every run. Any other build
# compiles <source> itself. The suites are read from <source>'s lines that
# begin with TEST(, TEST_F( or TEST_P(, and read again when it changes; or,
# for a file whose tests a macro defines, given by SUITES.
function(sluice_windows_stand_in target source reason)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "SUITES")
  if(NOT WIN32)
    target_sources(${target} PRIVATE ${source})
    return()
  endif()
  set(path ${CMAKE_CURRENT_SOURCE_DIR}/${source})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
  file(STRINGS ${path} lines REGEX "^(TEST|TEST_F|TEST_P)\\( *[A-Za-z0-9_]+")
  set(suites ${arg_SUITES})
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[A-Z_]+\\( *([A-Za-z0-9_]+).*" "\\1" suite "${line}")
    list(APPEND suites ${suite})
  endforeach()
  list(REMOVE_DUPLICATES suites)
  if(NOT suites)
    message(FATAL_ERROR "sluice_windows_stand_in: no TEST, TEST_F or TEST_P line in ${source} "
      "(expected one at a line's start, its suite on the same line)")
  endif()
  string(REPLACE "\"" "\\\"" reason "${reason}")
  set(text "// Generated from tests/${source} by tests/cmake/windows_stand_ins.cmake:\n")
  string(APPEND text "// that file does not compile for Windows.\n#include <gtest/gtest.h>\n")
  foreach(suite IN LISTS suites)
    string(APPEND text "\nTEST(${suite}, not_built_for_windows) {\n"
      "  GTEST_SKIP() << \"not on Windows: tests/${source} is not built there: ${reason}\";\n}\n")
  endforeach()
  set(output ${CMAKE_CURRENT_BINARY_DIR}/windows_stand_ins/${source})
  file(CONFIGURE OUTPUT ${output} CONTENT "${text}" @ONLY)
  target_sources(${target} PRIVATE ${output})
endfunction()
