# cmake -DCXX=<compiler> -DINCLUDE=<dir> -DSOURCE=<file.cpp> -DEXPECT=fail|pass
#       [-DPATTERNS=<regex;regex>] [-DFLAGS=<flag;flag>] [-DERROR_RC=<n>] [-DHEAD=<lines>]
#       -P check_compile.cmake
# Compiles SOURCE with FLAGS (default: -std=c++20 -fsyntax-only). EXPECT=fail: the compiler must
# reject it with an ordinary diagnostic (an exit status in the list ERROR_RC, default 1: g++ and
# clang; nvcc exits 1 or 2),
# not a crash, whose text matches every regex in PATTERNS. EXPECT=pass: it must compile.
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST)
if(NOT DEFINED FLAGS)
  set(FLAGS -std=c++20 -fsyntax-only)
endif()
if(NOT DEFINED ERROR_RC)
  set(ERROR_RC 1)
endif()
execute_process(
  COMMAND ${CXX} ${FLAGS} -I${INCLUDE} ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(log "${out}${err}")
if(EXPECT STREQUAL "pass")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAIL: ${SOURCE} should compile (exit ${rc}):\n${log}")
  endif()
  message(STATUS "PASSED: ${SOURCE} compiles")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "FAIL: ${SOURCE} compiled, but it must be rejected")
endif()
# A crashing compiler also exits non-zero; that is not the readable rejection under test.
if(NOT rc IN_LIST ERROR_RC OR log MATCHES "PLEASE submit a bug report")
  message(FATAL_ERROR
          "FAIL: ${SOURCE}: the compiler crashed (exit ${rc}) instead of a diagnostic:\n${log}")
endif()
# HEAD=n: the patterns must match within the first n lines of the diagnostic (a rule's name
# before any instantiation wall).
if(DEFINED HEAD)
  string(REGEX MATCHALL "[^\n]*\n" lines "${log}")
  list(LENGTH lines nlines)
  if(nlines GREATER HEAD)
    list(SUBLIST lines 0 ${HEAD} lines)
  endif()
  string(JOIN "" log ${lines})
endif()
foreach(p IN LISTS PATTERNS)
  if(NOT log MATCHES "${p}")
    message(FATAL_ERROR "FAIL: ${SOURCE}: the diagnostic does not match '${p}':\n${log}")
  endif()
endforeach()
message(STATUS "PASSED: ${SOURCE} is rejected, the diagnostic matches: ${PATTERNS}")
