# Debian packages of the install components (CMakeLists.txt names them):
#
#   cmake --build --preset release && (cd build/release && cpack -G DEB)
#
#   libsluice-dev   dev: the headers, the static library (or a shared one's
#                   namelink), the CMake package and sluice.pc
#   libsluice0.<m>  runtime: the shared library, in a BUILD_SHARED_LIBS=ON
#                   build only (its name carries the soname's version)
#   sluice-tools    tools: sluice-bench, sluice-bin2text, sluice-text2bin and
#                   their man pages (those a build made: go-md2man, CLI11)
#
# They install under /usr. Library dependencies are found by dpkg-shlibdeps
# (dpkg-dev); a static libsluice built with liburing needs liburing-dev in
# its users' links, so libsluice-dev depends on it then. ctest
# consumer.deb_* build the packages, unpack them with dpkg-deb into an empty
# root, and build the consumer projects against that.
set(CPACK_PACKAGE_NAME sluice)
set(CPACK_PACKAGE_VENDOR sluice)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "sluice developers <sluice@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libsluice-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "sluice: fast, safe file output and input for C and C++ (development files)")
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME sluice-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
    "sluice-bench (how fast each way of writing and reading a file is on this disk) and the converters sluice-bin2text and sluice-text2bin")

# A package per component this build installs something in (no tools
# package for a build of the library alone).
get_cmake_property(CPACK_COMPONENTS_ALL COMPONENTS)
if(sluice_library_type STREQUAL "SHARED_LIBRARY")
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libsluice${sluice_soversion})
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
  set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "sluice: fast, safe file output and input (shared library)")
  set(CPACK_COMPONENT_DEV_DEPENDS runtime)
elseif(SLUICE_CONFIG_LIBURING)
  set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS liburing-dev)
endif()

include(CPack)
