# sluice_test_groups(<target> [PROPERTIES <property> <value>...]): one ctest
# entry per source file of <target>, named <target>:<file> (without .cpp;
# a generated file by its path in the binary directory), that runs the GoogleTest suites defined in that
# file (--gtest_filter, TEST_P's instantiations included), and one more,
# <target>:others, that runs every test no file's entry named (none, unless
# a suite is defined in a way this does not read). For a program started
# through an emulator: Wine takes a few tenths of a second to start a
# program, which, paid per test (gtest_discover_tests), would cost minutes
# for the whole suite; per file it costs seconds. A failure names the file
# in ctest's list, and GoogleTest's output (ctest --output-on-failure) names
# the test and why.
#
# The suites are read at configure time from the lines that begin with
# TEST(, TEST_F( or TEST_P( (the suite on the same line), and read again
# when a file changes.
function(sluice_test_groups target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "PROPERTIES")
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(all_patterns "")
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    if(IS_ABSOLUTE ${source})  # generated: named from the binary directory
      set(path ${source})
      file(RELATIVE_PATH name ${CMAKE_CURRENT_BINARY_DIR} ${source})
      string(REGEX REPLACE "\\.cpp$" "" name ${name})
    else()
      set(path ${source_dir}/${source})
      string(REGEX REPLACE "\\.cpp$" "" name ${source})
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
    file(STRINGS ${path} lines REGEX "^(TEST|TEST_F|TEST_P)\\( *[A-Za-z0-9_]+")
    set(patterns "")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[A-Z_]+\\( *([A-Za-z0-9_]+).*" "\\1" suite "${line}")
      list(APPEND patterns "${suite}.*" "*/${suite}.*")
    endforeach()
    list(REMOVE_DUPLICATES patterns)
    if(NOT patterns)
      continue()
    endif()
    list(APPEND all_patterns ${patterns})
    string(REPLACE ";" ":" filter "${patterns}")
    add_test(NAME ${target}:${name} COMMAND ${target} --gtest_filter=${filter})
    set_tests_properties(${target}:${name} PROPERTIES ${arg_PROPERTIES})
  endforeach()
  string(REPLACE ";" ":" all "${all_patterns}")
  add_test(NAME ${target}:others COMMAND ${target} --gtest_filter=-${all})
  set_tests_properties(${target}:others PROPERTIES ${arg_PROPERTIES})
endfunction()
