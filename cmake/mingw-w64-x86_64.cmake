# Cross-compiling sluice for 64-bit Windows with Debian's MinGW-w64 (the
# posix-threads flavour, g++-mingw-w64-x86-64-posix: C++20, std::thread,
# std::filesystem), and running what it builds under Wine (wine64).
#
#   cmake -B build/windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
#
# Programs are linked statically (libgcc, libstdc++, winpthread), so that an
# .exe runs under Wine or on Windows without MinGW's DLLs beside it.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(sluice_mingw_prefix x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${sluice_mingw_prefix}-gcc-posix)
set(CMAKE_CXX_COMPILER ${sluice_mingw_prefix}-g++-posix)
set(CMAKE_RC_COMPILER ${sluice_mingw_prefix}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${sluice_mingw_prefix})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# ctest and add_custom_command run the .exe files through Wine, quietly.
find_program(SLUICE_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(SLUICE_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/env WINEDEBUG=-all ${SLUICE_WINE})
endif()
