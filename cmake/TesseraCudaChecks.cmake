# CUDA checks that read the build's own compile (no translation unit is compiled twice).
#
#   tessera_cuda_checked_sources(<target> [--device-only])
#       Every CUDA source of <target> (any kind of target) is compiled through cmake/cuda_keep.py,
#       which keeps, under ${TESSERA_CUDA_ARTIFACTS}/<target>/, the unit's PTX, cubin, `ptxas -v`
#       report, host include markers and the CPU seconds of the compile (cuda_keep.py lists them;
#       --device-only: see DEVICE_ONLY below).
#   tessera_cuda_checked_object(<target> <source>... [DEVICE_ONLY] [OPTIONS <nvcc option>...])
#       An OBJECT library of <source>s built for sm_90a with the build's CUDA flags and the
#       tessera headers, kept as above: for sources that only checks read (references, examples).
#       DEVICE_ONLY: nothing links the objects and no check reads their host side, so nvcc
#       compiles the device side alone (the object is the cubin).
#   tessera_cuda_artifact(<var> <target> <source>)
#       Sets <var> to the artifacts' common path of <source> in <target>:
#       ${TESSERA_CUDA_ARTIFACTS}/<target>/<source file name>, to which the checks add .ptx,
#       .cubin, .ptxas, .includes or .cpu (tests/cuda/artifacts.py reads them).
#   tessera_cuda_compile_budget(<test> <max ratio> <target> <source>)
#       A test that fails when the build's compile of <source> in <target> took more than
#       <max ratio> times the CPU seconds of a baseline kernel without tessera
#       (bench/compile_time_kernel.cu -DBASELINE), compiled three times in the same build
#       (tests/cuda/compile_budget.py; a ratio, never seconds).
#
# NOTE: the checked targets never go through a compiler cache (CMAKE_CUDA_COMPILER_LAUNCHER, e.g.
# ccache, is replaced for them): a cached object would come without its PTX and with the cache's
# seconds instead of the compiler's.
set(TESSERA_CUDA_ARTIFACTS ${PROJECT_BINARY_DIR}/cuda-artifacts CACHE INTERNAL
    "Where tessera_cuda_checked_sources keeps the PTX, cubin, ptxas report and compile seconds")
find_package(Python3 COMPONENTS Interpreter REQUIRED)

function(tessera_cuda_checked_sources target)
  set(launcher ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/cuda_keep.py
               ${TESSERA_CUDA_ARTIFACTS}/${target} ${ARGN})
  set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER "${launcher}")
endfunction()

function(tessera_cuda_checked_object target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "DEVICE_ONLY" "" "OPTIONS")
  add_library(${target} OBJECT ${arg_UNPARSED_ARGUMENTS})
  target_link_libraries(${target} PRIVATE tessera::tessera)
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES 90a-real)
  target_compile_options(${target} PRIVATE ${arg_OPTIONS})
  if(arg_DEVICE_ONLY)
    tessera_cuda_checked_sources(${target} --device-only)
  else()
    tessera_cuda_checked_sources(${target})
  endif()
endfunction()

function(tessera_cuda_artifact var target source)
  get_filename_component(name ${source} NAME)
  set(${var} ${TESSERA_CUDA_ARTIFACTS}/${target}/${name} PARENT_SCOPE)
endfunction()

set(_tessera_baselines tessera_compile_baseline_1 tessera_compile_baseline_2
    tessera_compile_baseline_3)
function(tessera_cuda_compile_budget test max_ratio target source)
  set(baselines)
  foreach(b ${_tessera_baselines})
    if(NOT TARGET ${b})  # the baseline kernel, compiled as the first budget's directory compiles
      tessera_cuda_checked_object(${b} ${PROJECT_SOURCE_DIR}/bench/compile_time_kernel.cu
                                  OPTIONS -DBASELINE)
      set_target_properties(${b} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endif()
    tessera_cuda_artifact(art ${b} compile_time_kernel.cu)
    list(APPEND baselines ${art})
  endforeach()
  tessera_cuda_artifact(unit ${target} ${source})
  add_test(NAME ${test}
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/cuda/compile_budget.py
                   ${max_ratio} ${unit} ${baselines})
  set_tests_properties(${test} PROPERTIES LABELS compile)
endfunction()
