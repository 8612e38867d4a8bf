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
  if(TARGET facet-mat-reader)
    add_dependencies(${name} facet-mat-reader) # MAT 7.3 files load through it
  endif()
  facet_warnings(${name})
  if("solver" IN_LIST T_LABELS)
    facet_lean_sanitizers(${name})
  endif()
  # One precompiled header per test folder, compiled by a one-line object library with the
  # folder's flags (facet_pch_tests_<folder>) and reused by every test of the folder. A test as
  # the owner would not do: GCC refuses a header compiled with a -D the user lacks (the app tests
  # that run facet-cli define FACET_CLI_PATH), and QtTest's content depends on QT_GUI_LIB and
  # QT_WIDGETS_LIB, which differ between folders. AUTOMOC's mocs_compilation.cpp of a test is
  # empty (the tests include their .moc): loading the header there would cost 2-4 s for nothing.
  if(FACET_PCH AND T_LABELS)
    list(GET T_LABELS 0 kind)
    get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
    set(anchor facet_pch_tests_${folder})
    if(NOT TARGET ${anchor})
      file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${anchor}.cpp
           CONTENT "// Compiles the precompiled header the tests of this folder reuse.\n")
      add_library(${anchor} OBJECT ${CMAKE_CURRENT_BINARY_DIR}/${anchor}.cpp)
      set_target_properties(${anchor} PROPERTIES AUTOMOC OFF)
      target_link_libraries(${anchor} PRIVATE Qt6::Test ${T_LIBS})
      facet_warnings(${anchor})
      if("solver" IN_LIST T_LABELS)
        facet_lean_sanitizers(${anchor})
      endif()
      facet_precompile(${anchor} test_${kind})
    endif()
    facet_precompile(${name} test_${kind} REUSE_FROM ${anchor})
    set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${name}_autogen/mocs_compilation.cpp
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set(env "FACET_DATA_DIR=${FACET_DATA_DIR}" "QT_QPA_PLATFORM=offscreen"
          "OMP_NUM_THREADS=${FACET_TEST_OMP_THREADS}")
  if(T_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  endif()
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 900)
endfunction()
