# Checks what an installed shared libsluice exports (nm -D --defined-only):
#  - every symbol is a function of the C API (sluice_*, declared in c.h) or
#    a C++ symbol of namespace sluice (its functions, variables, vtables,
#    typeinfo...): nothing of std:: or of anything else;
#  - every function the installed sluice/c.h declares is exported, so that a
#    function added to the header and not exported fails here.
# A C++ symbol is told by its mangled name (Itanium C++ ABI), which says
# where it lives: a demangled one cannot tell sluice::f from a std::
# template instantiated on a sluice type. Offenders are shown demangled.
#
#   cmake -DPREFIX=<prefix> -DINCLUDEDIR=<include dir, relative to PREFIX>
#         -DNM=<nm> [-DCXXFILT=<c++filt>] -P exported_symbols.cmake

cmake_minimum_required(VERSION 3.25)

foreach(var PREFIX INCLUDEDIR NM)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "exported_symbols.cmake: ${var} is not set")
  endif()
endforeach()

# ---- the functions c.h declares ---------------------------------------------

# `text` without its /* */ comments.
function(strip_block_comments text out)
  set(kept "")
  while(TRUE)
    string(FIND "${text}" "/*" start)
    if(start EQUAL -1)
      break()
    endif()
    string(SUBSTRING "${text}" 0 ${start} before)
    string(APPEND kept "${before} ")
    math(EXPR start "${start} + 2")
    string(SUBSTRING "${text}" ${start} -1 text)
    string(FIND "${text}" "*/" end)
    if(end EQUAL -1)
      message(FATAL_ERROR "an unterminated /* comment in the header")
    endif()
    math(EXPR end "${end} + 2")
    string(SUBSTRING "${text}" ${end} -1 text)
  endwhile()
  set(${out} "${kept}${text}" PARENT_SCOPE)
endfunction()

# The names of the functions `header` declares at file scope: comments,
# preprocessor lines (the put and write macros among them), bodies and
# static inline functions (not exported) left out.
function(declared_functions header out)
  file(READ "${header}" text)
  strip_block_comments("${text}" text)
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  string(REGEX REPLACE "\\\\\n" " " text "${text}")
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\\1" text "${text}")
  string(REGEX REPLACE "extern[ \t\n]+\"C\"[ \t\n]*{" " " text "${text}")
  string(REGEX REPLACE "[][]" " " text "${text}")
  # Innermost braces first, until none is left: a body or a struct's fields
  # become the end of a statement.
  while(TRUE)
    string(REGEX REPLACE "{[^{}]*}" ";" shorter "${text}")
    if(shorter STREQUAL text)
      break()
    endif()
    set(text "${shorter}")
  endwhile()
  string(REGEX MATCHALL "[^;]+" statements "${text}")
  set(names)
  foreach(statement IN LISTS statements)
    string(STRIP "${statement}" statement)
    if(statement MATCHES "^(static|typedef)[ \t\n]")
      continue()
    endif()
    # The first name before a parenthesis: the function's (a typedef of a
    # pointer to one, "(*name)(", is left out above).
    if(statement MATCHES "([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\(")
      set(name ${CMAKE_MATCH_1})
      if(name MATCHES "^sluice_")
        list(APPEND names ${name})
      endif()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

set(header "${PREFIX}/${INCLUDEDIR}/sluice/c.h")
if(NOT EXISTS "${header}")
  message(FATAL_ERROR "no ${header}: was the shared library installed there?")
endif()
declared_functions("${header}" declared)
# The reading above must see through the macros and the inline functions:
# the names every binding relies on, sluice_writer_put among them, prove it.
foreach(name sluice_writer_open sluice_writer_put sluice_writer_write sluice_writer_close
        sluice_reader_read_line sluice_journal_write sluice_last_error)
  if(NOT name IN_LIST declared)
    message(FATAL_ERROR "${header}: ${name} not found among its declarations "
                        "(found: ${declared}); has the header's form changed?")
  endif()
endforeach()
if("sluice_writer_put_inline" IN_LIST declared)
  message(FATAL_ERROR "${header}: a static inline function was taken for a declaration")
endif()

# ---- what the library exports -----------------------------------------------

file(GLOB_RECURSE libraries "${PREFIX}/*/libsluice.so")
list(LENGTH libraries count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one libsluice.so under ${PREFIX}, found ${count}: ${libraries}")
endif()
execute_process(COMMAND ${NM} -D --defined-only ${libraries}
  OUTPUT_VARIABLE listing ERROR_VARIABLE nm_error RESULT_VARIABLE nm_result)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${libraries} failed (${nm_result}): ${nm_error}")
endif()

# A C++ symbol of namespace sluice: its name, after the prefix of a special
# name (vtable, VTT, typeinfo and its name, thread_local wrappers, guard
# variable, reference temporary, construction vtable, or a thunk and its
# call offsets), is nested in sluice ("N6sluice", qualifiers allowed after
# the N) or is a local entity of a function nested there ("ZN6sluice").
set(call_offset "(hn?[0-9]+_|vn?[0-9]+_n?[0-9]+_)")
set(special "(T[VTISHWC]|G[VR]|Th n?[0-9]+_|Tv n?[0-9]+_n?[0-9]+_|Tc${call_offset}${call_offset})")
string(REPLACE " " "" special "${special}")
set(in_sluice "^_Z${special}?Z?N[rVKRO]*6sluice")

set(c_functions)
set(cxx_count 0)
set(strangers)
string(REGEX REPLACE "\n$" "" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) ([^ @]+)")
    message(FATAL_ERROR "unexpected nm output: '${line}'")
  endif()
  set(type ${CMAKE_MATCH_1})
  set(name ${CMAKE_MATCH_2})
  if(name MATCHES "^_Z")
    if(name MATCHES "${in_sluice}")
      math(EXPR cxx_count "${cxx_count} + 1")
    else()
      list(APPEND strangers ${name})
    endif()
  elseif(name IN_LIST declared AND type MATCHES "^[TWi]$")
    list(APPEND c_functions ${name})
  else()
    # Not declared by c.h (or not a function): an internal C name, or one
    # the header forgot, is an ABI promise nobody made.
    list(APPEND strangers ${name})
  endif()
endforeach()

set(missing ${declared})
if(c_functions)
  list(REMOVE_ITEM missing ${c_functions})
endif()

# ---- the verdict ------------------------------------------------------------

set(report "")
if(strangers)
  set(shown ${strangers})
  if(CXXFILT)
    execute_process(COMMAND ${CXXFILT} ${strangers} OUTPUT_VARIABLE shown
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REPLACE "\n" ";" shown "${shown}")
  endif()
  list(JOIN shown "\n  " shown)
  list(LENGTH strangers n)
  string(APPEND report "\n${n} exported symbols neither declared by c.h nor in namespace sluice "
                       "(cmake/sluice.map decides what is exported):\n  ${shown}")
endif()
if(missing)
  list(JOIN missing "\n  " shown)
  string(APPEND report "\nfunctions declared in ${header} but not exported by ${libraries} "
                       "(not defined, or hidden by cmake/sluice.map):\n  ${shown}")
endif()
if(cxx_count EQUAL 0)
  string(APPEND report "\nno symbol of namespace sluice is exported: the C++ API is hidden")
endif()
if(report)
  message(FATAL_ERROR "${libraries} exports the wrong symbols:${report}")
endif()
list(LENGTH c_functions c_count)
message(STATUS "${libraries}: the ${c_count} functions of c.h and ${cxx_count} symbols of "
               "namespace sluice, nothing else")
