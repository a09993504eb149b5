# Checks an installed sluice: its include directory holds exactly the public
# headers, and no header lies anywhere else under the prefix (nothing from
# src/, nothing under sluice/detail/).
#
#   cmake -DPREFIX=<prefix> -DINCLUDEDIR=<include dir, relative to PREFIX>
#         "-DEXPECTED=sluice/error.hpp;..." -P installed_headers.cmake

foreach(var PREFIX INCLUDEDIR EXPECTED)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "installed_headers.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT IS_DIRECTORY "${PREFIX}/${INCLUDEDIR}")
  message(FATAL_ERROR "no include directory at ${PREFIX}/${INCLUDEDIR}: was the package installed?")
endif()

# Everything under the include directory, directories included, so that an
# empty sluice/detail/ shows too.
file(GLOB_RECURSE installed RELATIVE "${PREFIX}/${INCLUDEDIR}" LIST_DIRECTORIES true
     "${PREFIX}/${INCLUDEDIR}/*")
set(expected ${EXPECTED})
foreach(header IN LISTS EXPECTED)
  get_filename_component(parent "${header}" DIRECTORY)
  list(APPEND expected "${parent}")
endforeach()
list(REMOVE_DUPLICATES expected)
list(SORT expected)
list(SORT installed)

set(extra ${installed})
list(REMOVE_ITEM extra ${expected})
set(missing ${expected})
if(installed)
  list(REMOVE_ITEM missing ${installed})
endif()

# Headers outside the include directory: a source file or an internal header
# installed by mistake.
file(GLOB_RECURSE elsewhere RELATIVE "${PREFIX}" "${PREFIX}/*.h" "${PREFIX}/*.hpp" "${PREFIX}/*.hh"
     "${PREFIX}/*.hxx" "${PREFIX}/*.ipp" "${PREFIX}/*.inl" "${PREFIX}/*.cpp")
list(FILTER elsewhere EXCLUDE REGEX "^${INCLUDEDIR}/")

set(title_extra "installed in ${PREFIX}/${INCLUDEDIR} but not public")
set(title_missing "public but not installed")
set(title_elsewhere "headers or sources elsewhere under ${PREFIX}")

set(report "")
foreach(kind extra missing elsewhere)
  if(${kind})
    list(JOIN ${kind} "\n  " items)
    string(APPEND report "\n${title_${kind}}:\n  ${items}")
  endif()
endforeach()
if(report)
  message(FATAL_ERROR "the installed include tree is not the public headers${report}")
endif()
list(LENGTH EXPECTED count)
message(STATUS "${PREFIX}/${INCLUDEDIR}: exactly the ${count} public headers")
