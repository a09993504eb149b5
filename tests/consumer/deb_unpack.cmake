# Makes the Debian packages of a built sluice (cpack -G DEB, as
# cmake/packaging.cmake sets it up), unpacks each into ROOT (emptied first)
# with dpkg-deb, the files as dpkg would install them, and checks them:
# exactly the packages PACKAGES names, no file in two of them (dpkg would
# refuse the second), each holding what it is for, and every program of
# sluice-tools running from the unpacked tree.
#
#   cmake -DBINARY=<build dir> -DROOT=<dir> "-DPACKAGES=libsluice-dev;..."
#         -P deb_unpack.cmake
#
# Without dpkg-deb (not a Debian system) it says so and stops: ctest counts
# that as skipped.

cmake_minimum_required(VERSION 3.25)  # IN_LIST

foreach(var BINARY ROOT PACKAGES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "deb_unpack.cmake: ${var} is not set")
  endif()
endforeach()
find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  message(STATUS "deb_unpack: skipped: dpkg-deb not found (not a Debian system)")
  return()
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE failed OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(failed)
    message(FATAL_ERROR "${ARGN}: ${failed}\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

set(debs ${ROOT}-debs)
file(REMOVE_RECURSE ${ROOT} ${debs})
file(MAKE_DIRECTORY ${ROOT})
run(${CMAKE_CPACK_COMMAND} -G DEB --config ${BINARY}/CPackConfig.cmake -B ${debs})

file(GLOB packages RELATIVE ${debs} ${debs}/*.deb)
set(made)
set(installed)
foreach(package IN LISTS packages)
  run(${DPKG_DEB} --field ${debs}/${package} Package)
  string(STRIP "${output}" name)
  list(APPEND made ${name})
  run(${DPKG_DEB} --contents ${debs}/${package})
  string(REGEX MATCHALL "\\./[^\n]*[^/\n]\n" files "${output}")
  foreach(file IN LISTS files)
    string(STRIP "${file}" file)
    if(file IN_LIST installed)
      message(FATAL_ERROR "${file} is in two packages (the second is ${name})")
    endif()
    list(APPEND installed ${file})
  endforeach()
  run(${DPKG_DEB} --extract ${debs}/${package} ${ROOT})
  message(STATUS "${name}: ${package}")
endforeach()
list(SORT made)
set(expected ${PACKAGES})
list(SORT expected)
if(NOT made STREQUAL expected)
  message(FATAL_ERROR "cpack made the packages '${made}', expected '${expected}'")
endif()

# What each one holds.
function(expect package pattern)
  file(GLOB found ${ROOT}/${pattern})
  if(NOT found)
    message(FATAL_ERROR "${package}: nothing at /${pattern}")
  endif()
endfunction()
if("libsluice-dev" IN_LIST PACKAGES)
  foreach(pattern usr/include/sluice/sluice.hpp usr/include/sluice/c.h
          usr/include/sluice/version.hpp usr/lib*/cmake/sluice/sluice-config.cmake
          usr/lib*/pkgconfig/sluice.pc usr/lib*/libsluice.[as]*)
    expect(libsluice-dev ${pattern})
  endforeach()
endif()
foreach(package IN LISTS PACKAGES)
  if(package MATCHES "^libsluice[0-9]")
    expect(${package} usr/lib*/libsluice.so.*)
  endif()
endforeach()
if("sluice-tools" IN_LIST PACKAGES)
  file(GLOB programs ${ROOT}/usr/bin/*)
  if(NOT programs)
    message(FATAL_ERROR "sluice-tools: no program in /usr/bin")
  endif()
  foreach(program IN LISTS programs)
    run(${program} --help)
    get_filename_component(name ${program} NAME)
    message(STATUS "sluice-tools: ${name} --help runs")
  endforeach()
  file(GLOB pages RELATIVE ${ROOT}/usr/share/man/man1 ${ROOT}/usr/share/man/man1/*.1)
  foreach(page IN LISTS pages)
    string(REGEX REPLACE "\\.1$" "" name ${page})
    if(NOT EXISTS ${ROOT}/usr/bin/${name})
      message(FATAL_ERROR "sluice-tools: man page ${page} for no program")
    endif()
  endforeach()
endif()
