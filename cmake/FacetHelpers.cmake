# Shared CMake helpers: warnings and test registration.

# facet_warnings(target): the project's warning set, private to the target.
function(facet_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wno-unknown-pragmas
                                           # GCC 12 false positives inside its AVX-512 headers
                                           $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
endfunction()

# facet_lean_sanitizers(target): in the asan preset, for the Eigen-heavy solver and its tests
# only, UBSan without its per-access type-mismatch checks (alignment, null) and pointer-overflow,
# and ASan without its fake stack for use-after-return.
# - Inlined Eigen expressions put a type-mismatch check on every coefficient access: they made
#   the solver's translation units compile 1.5x slower (graph/spectral.cpp: 63 s against 42 s);
#   the whole ASan build from nothing took 1740 s with them, 1243 s without. A null or wild pointer
#   still faults under ASan, Eigen's aligned packet loads fault when misaligned, and ASan still
#   checks the bounds of every access; the arithmetic checks (signed overflow, shifts, division,
#   bounds of fixed arrays, enum and bool values) stay on.
# - ASan's fake stack (ASAN_OPTIONS detect_stack_use_after_return=1, scripts/test) gives a frame
#   32-byte alignment, while GCC 12 copies Eigen's 64-byte-aligned stack objects with aligned
#   AVX-512 moves (vmovdqa64): without the alignment checks, which had changed that code,
#   Eigen's dense factorizations faulted (19 tests: Householder steps, one LU). Stack frames
#   keep their redzones (stack overflows are still caught); only returning a local's address
#   goes unseen here. (Measured with GCC; the sanitizer presets now build with clang, which gets
#   the same two choices through its own flag for the fake stack.)
# Qt-side translation units keep every check: the type-mismatch checks cost nothing measurable
# there (tests/app/test_mat_loader.cpp: 13.5 s either way).
function(facet_lean_sanitizers target)
  if(CMAKE_CXX_FLAGS MATCHES "sanitize=[a-z,]*undefined")
    target_compile_options(${target} PRIVATE -fno-sanitize=alignment,null,pointer-overflow)
  endif()
  if(CMAKE_CXX_FLAGS MATCHES "sanitize=[a-z,]*address")
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE --param=asan-use-after-return=0)
    else()
      target_compile_options(${target} PRIVATE -fsanitize-address-use-after-return=never)
    endif()
  endif()
endfunction()

# facet_precompile(target kind [REUSE_FROM other]): the target's translation units start from
# cmake/pch/<kind>_pch.h compiled once (FACET_PCH), or from the one `other` compiled. Reuse needs
# the compiler to accept the other's header: GCC does when the flags match and every macro the
# header's preprocessing looked at has the same definition (a target's own -D that no header
# reads is fine); otherwise it falls back to parsing the headers and says so with -Winvalid-pch.
function(facet_precompile target kind)
  if(NOT FACET_PCH)
    return()
  endif()
  cmake_parse_arguments(P "" "REUSE_FROM" "" ${ARGN})
  if(P_REUSE_FROM)
    target_precompile_headers(${target} REUSE_FROM ${P_REUSE_FROM})
  else()
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/pch/${kind}_pch.h)
  endif()
endfunction()

# facet_gui_code(target): the GUI layers (widgets, plots) at -O1 in release. Their code handles
# events and hands drawing to Qt and QCustomPlot, which keep their own optimization; the solver
# they call keeps -O3. scripts/run builds them before the window can open, where -O3 cost about
# a third more compile time for no measurable gain on screen.
function(facet_gui_code target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O1>)
endfunction()

# facet_unity(target [BATCH n]): compile the target's sources in batches of n (default 8) per
# translation unit (FACET_UNITY). A Qt translation unit here spent about 2.7 of its 4.4 s loading
# the 400 MB precompiled header and parsing what it includes; a batch loads it once.
function(facet_unity target)
  if(NOT FACET_UNITY)
    return()
  endif()
  cmake_parse_arguments(U "" "BATCH" "" ${ARGN})
  if(NOT U_BATCH)
    set(U_BATCH 8)
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${U_BATCH})
endfunction()

# OpenMP threads the tests run with. The tsan preset sets 1: libgomp is not built with
# ThreadSanitizer, so its barriers look like races to it.
set(FACET_TEST_OMP_THREADS 2 CACHE STRING "OMP_NUM_THREADS for the tests")

# FACET_TEST_FILTER: a regular expression over test names (solver_kmeans, app_sweep, ...); a tree
# configured with one compiles and registers only the tests it matches. The tsan preset sets it
# to the threaded tests, so that tree builds what its step runs and nothing else.
set(FACET_TEST_FILTER "" CACHE STRING "Build and register only the tests whose names match")

# facet_add_tests(executable PREFIX prefix SOURCES test_a.cpp ... LIBS lib ... [LABELS l ...])
# One executable for a folder's tests (tests/common/facet_test.h): every test_<name>.cpp joins
# it and is registered with CTest as <prefix>_<name>, run as `executable <name>` in a process of
# its own. One link per folder instead of one per file: the libraries are linked 5 times, not 74.
# Tests see the data folder through FACET_DATA_DIR and run on the offscreen platform.
function(facet_add_tests executable)
  cmake_parse_arguments(T "" "PREFIX" "SOURCES;LIBS;LABELS" ${ARGN})
  set(kept)
  set(names)
  foreach(source ${T_SOURCES})
    get_filename_component(stem ${source} NAME_WE)
    string(REGEX REPLACE "^test_" "" stem ${stem})
    set(name ${T_PREFIX}_${stem})
    if(FACET_TEST_FILTER AND NOT name MATCHES "${FACET_TEST_FILTER}")
      continue()
    endif()
    list(APPEND kept ${source})
    list(APPEND names ${name})
  endforeach()
  if(NOT kept)
    return()
  endif()
  add_executable(${executable} ${kept} ${PROJECT_SOURCE_DIR}/tests/common/runner_main.cpp)
  target_link_libraries(${executable} PRIVATE Qt6::Test ${T_LIBS} facet_test_common)
  if(TARGET facet-mat-reader)
    add_dependencies(${executable} facet-mat-reader) # MAT 7.3 files load through it
  endif()
  facet_warnings(${executable})
  # Test code is compiled in unity batches and, in release, at -O1: the tests were half of a
  # release build's compile time, and what they time-critically run lives in the libraries,
  # which keep -O3 (a solver test compiled in 11 s of CPU at -O1 against 15 s at -O3).
  facet_unity(${executable})
  target_compile_options(${executable} PRIVATE $<$<CONFIG:Release>:-O1>
                                               # GCC 12 at -O1: false -Wuninitialized in its
                                               # AVX-512 headers, through Eigen's ptranspose
                                               $<$<CXX_COMPILER_ID:GNU>:-Wno-uninitialized>
                                               # in a unity batch GCC sees each test file as a
                                               # header, and warns that its classes use the
                                               # file-local helpers
                                               $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  if("solver" IN_LIST T_LABELS)
    facet_lean_sanitizers(${executable})
  endif()
  # One precompiled header per folder, unless the folder compiles in unity batches: there the
  # header cost more than it saved (a widgets batch: 6.7 s with it, 12.9 s without, but the
  # header took 39 s to build for 3 batches). AUTOMOC's mocs_compilation.cpp is empty (the tests
  # include their .moc), and loading the header there would cost 2-4 s for nothing.
  if(T_LABELS AND NOT FACET_UNITY)
    list(GET T_LABELS 0 kind)
    facet_precompile(${executable} test_${kind})
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${executable}_autogen/mocs_compilation.cpp
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
  set(env "FACET_DATA_DIR=${FACET_DATA_DIR}" "QT_QPA_PLATFORM=offscreen"
          "OMP_NUM_THREADS=${FACET_TEST_OMP_THREADS}")
  foreach(source name IN ZIP_LISTS kept names)
    get_filename_component(stem ${source} NAME_WE)
    string(REGEX REPLACE "^test_" "" stem ${stem})
    add_test(NAME ${name} COMMAND ${executable} ${stem})
    if(T_LABELS)
      set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
    endif()
    # ctest runs two test programs at once on two cores, each with a team of OpenMP threads:
    # libgomp's default spins at a barrier for a while before sleeping, and spinning threads of
    # one program took the core the other's team was waiting for (an ORL solve in
    # widgets_explorer_controls ran at 40 ms per iteration instead of 3 beside a busy core).
    # Passive waiting made the release step's tests 153 -> 130 s. The bench tests keep the
    # default, which their per-iteration figures assume.
    set(test_env ${env})
    if(NOT name MATCHES "bench")
      list(APPEND test_env "OMP_WAIT_POLICY=passive")
    endif()
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${test_env}" TIMEOUT 900)
    foreach(entry ${FACET_TEST_COSTS}) # name:seconds (tests/CMakeLists.txt)
      if(entry MATCHES "^${name}:([0-9]+)$")
        set_tests_properties(${name} PROPERTIES COST ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endforeach()
endfunction()
