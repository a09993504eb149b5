# nlohmann-json for a cross build: the host's package is headers alone, the
# same for every target, but its CMake target names the host's include
# directory (/usr/include), whose C library headers must not reach a cross
# compiler. So its headers alone are copied into the build tree and named by
# the target nlohmann_json::nlohmann_json, as the package would.
find_path(SLUICE_HOST_NLOHMANN_JSON nlohmann/json.hpp NO_CMAKE_FIND_ROOT_PATH
          DOC "The host's include directory holding nlohmann/json.hpp")
if(NOT SLUICE_HOST_NLOHMANN_JSON)
  message(FATAL_ERROR "sluice tests: nlohmann/json.hpp not found on the host "
    "(expected under an include directory such as /usr/include; on Debian: "
    "apt-get install nlohmann-json3-dev)")
endif()
file(COPY ${SLUICE_HOST_NLOHMANN_JSON}/nlohmann DESTINATION ${CMAKE_BINARY_DIR}/host-headers)
add_library(sluice-host-nlohmann-json INTERFACE)
target_include_directories(sluice-host-nlohmann-json SYSTEM INTERFACE
                           ${CMAKE_BINARY_DIR}/host-headers)
add_library(nlohmann_json::nlohmann_json ALIAS sluice-host-nlohmann-json)
