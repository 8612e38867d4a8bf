# Shared CMake helpers: warnings and test registration.

# facet_warnings(target): the project's warning set, private to the target.
function(facet_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wno-unknown-pragmas
                                           # GCC 12 false positives inside its AVX-512 headers
                                           -Wno-maybe-uninitialized)
endfunction()

# OpenMP threads the tests run with. The tsan preset sets 1: libgomp is not built with
# ThreadSanitizer, so its barriers look like races to it.
set(FACET_TEST_OMP_THREADS 2 CACHE STRING "OMP_NUM_THREADS for the tests")

# facet_add_test(name SOURCES a.cpp ... LIBS lib ... [LABELS l ...])
# Builds one Qt Test executable and registers it with CTest. Tests see the data folder
# through FACET_DATA_DIR and run on the offscreen platform.
function(facet_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${T_LIBS})
  facet_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set(env "FACET_DATA_DIR=${FACET_DATA_DIR}" "QT_QPA_PLATFORM=offscreen"
          "OMP_NUM_THREADS=${FACET_TEST_OMP_THREADS}")
  if(T_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  endif()
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 900)
endfunction()
