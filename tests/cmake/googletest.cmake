# GoogleTest for the tests: the targets GTest::gtest, GTest::gtest_main and
# GTest::gmock.
#
# A native build takes the installed package (Debian's libgtest-dev). A
# cross build for Windows cannot link the host's libraries: it takes a
# GoogleTest built for the target if one is under CMAKE_FIND_ROOT_PATH, and
# otherwise builds it here, with the cross compiler, from Debian's source
# package (googletest, which libgtest-dev depends on), at
# SLUICE_GOOGLETEST_SOURCE. Nothing is downloaded; a missing source is a
# configure error that says which package gives it.
if(NOT (CMAKE_CROSSCOMPILING AND WIN32))
  find_package(GTest REQUIRED)
  return()
endif()

find_package(GTest QUIET)
if(GTest_FOUND)
  return()
endif()

set(SLUICE_GOOGLETEST_SOURCE /usr/src/googletest CACHE PATH
    "GoogleTest's sources, built for a cross build (Debian: the googletest package)")
if(NOT EXISTS ${SLUICE_GOOGLETEST_SOURCE}/CMakeLists.txt)
  message(FATAL_ERROR "sluice tests: no GoogleTest built for ${CMAKE_SYSTEM_NAME}, and no "
    "sources to build one at SLUICE_GOOGLETEST_SOURCE='${SLUICE_GOOGLETEST_SOURCE}' "
    "(expected its CMakeLists.txt; on Debian: apt-get install googletest)")
endif()
message(STATUS "sluice tests: GoogleTest built from ${SLUICE_GOOGLETEST_SOURCE}")

# Built as part of this tree, never installed with sluice; its headers are
# system headers, so sluice's warnings flags do not reach into them.
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(BUILD_GMOCK ON CACHE BOOL "" FORCE)
add_subdirectory(${SLUICE_GOOGLETEST_SOURCE} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL SYSTEM)
