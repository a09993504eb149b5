# Header-only libraries for a cross build (Windows from Linux): CLI11 and
# nlohmann_json are headers alone, so the build machine's copy serves the
# target as well. find_package cannot see it (the toolchain file confines
# it to the target's root), and adding the build machine's /usr/include
# would let its C headers shadow the target's, so the library's own
# directory is copied into the build tree and an imported target made on
# it, under the name find_package would give.
#
#   sluice_host_headers(CLI11::CLI11 CLI CLI/CLI.hpp)
#
# Does nothing unless cross-compiling, or if `target` exists already, or if
# the build machine lacks `header`.
function(sluice_host_headers target directory header)
  if(NOT CMAKE_CROSSCOMPILING OR TARGET ${target})
    return()
  endif()
  find_path(sluice_host_${directory}_root ${header} PATHS /usr/include /usr/local/include
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT sluice_host_${directory}_root)
    return()
  endif()
  set(copy ${PROJECT_BINARY_DIR}/host-headers)
  file(COPY ${sluice_host_${directory}_root}/${directory} DESTINATION ${copy})
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} SYSTEM INTERFACE ${copy})
endfunction()
