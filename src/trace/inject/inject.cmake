# src/trace/inject/inject.cmake - libgpumem_trace.so, the injection library of `gpumem trace` (issue 38).
# Built only where the Compute Sanitizer API is found: the CUDA toolkit's compute-sanitizer/ folder, the pip
# package nvidia-cuda-sanitizer-api unpacked by scripts/deps.sh into .whl/sanitizer/, or
# -DGPUMEM_SANITIZER_DIR=<folder holding include/sanitizer.h and libsanitizer-public.so>.
# The gpumem binary never links it; `gpumem trace` finds it beside itself (src/trace/collect.c).
set(GPUMEM_SANITIZER_DIR "" CACHE PATH "Compute Sanitizer API folder (include/sanitizer.h, libsanitizer-public.so)")
set(gm_san_hints ${GPUMEM_SANITIZER_DIR} "${CUDAToolkit_LIBRARY_ROOT}/compute-sanitizer"
    /usr/local/cuda/compute-sanitizer "${CMAKE_CURRENT_SOURCE_DIR}/.whl/sanitizer/nvidia/cu13")
set(gm_san_inc_hints "")
set(gm_san_lib_hints "")
foreach(d ${gm_san_hints})
  list(APPEND gm_san_inc_hints "${d}/include")
  list(APPEND gm_san_lib_hints "${d}" "${d}/lib")
endforeach()
find_path(GM_SANITIZER_INCLUDE sanitizer_patching.h HINTS ${gm_san_inc_hints} NO_DEFAULT_PATH)
find_library(GM_SANITIZER_LIB sanitizer-public HINTS ${gm_san_lib_hints} NO_DEFAULT_PATH)
if(NOT GM_SANITIZER_INCLUDE OR NOT GM_SANITIZER_LIB)
  message(STATUS "gpumem trace: Compute Sanitizer API not found (bash scripts/deps.sh, or -DGPUMEM_SANITIZER_DIR=): "
                 "libgpumem_trace.so not built, 'gpumem trace' will say it is unavailable")
  return()
endif()

set(gm_inj "${CMAKE_CURRENT_SOURCE_DIR}/src/trace/inject")
set(gm_trace_gen "${CMAKE_BINARY_DIR}/trace")
# the device callbacks, one real SASS per listed arch plus PTX of the last
set(gm_patch_codes "")
foreach(a ${GPUMEM_CUDA_ARCHS})
  list(APPEND gm_patch_codes "-gencode" "arch=compute_${a},code=sm_${a}")
endforeach()
list(APPEND gm_patch_codes "-gencode" "arch=compute_${last},code=compute_${last}")
add_custom_command(OUTPUT "${gm_trace_gen}/gmt_patches.fatbin"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${gm_trace_gen}"
  COMMAND ${CMAKE_CUDA_COMPILER} --fatbin --compile-as-tools-patch -I${GM_SANITIZER_INCLUDE} -I${gm_inj}
          ${gm_patch_codes} -o "${gm_trace_gen}/gmt_patches.fatbin" -c "${gm_inj}/patches.cu"
  DEPENDS "${gm_inj}/patches.cu" "${gm_inj}/trace_dev.h"
  COMMENT "Building the trace patches (Compute Sanitizer device callbacks)" VERBATIM)
add_custom_command(OUTPUT "${gm_trace_gen}/gmt_patches.c"
  COMMAND ${CMAKE_COMMAND} -DINPUT=${gm_trace_gen}/gmt_patches.fatbin -DOUTPUT=${gm_trace_gen}/gmt_patches.c
          -DSYMBOL=gmt_patches -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed.cmake
  DEPENDS "${gm_trace_gen}/gmt_patches.fatbin" ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed.cmake VERBATIM)

add_library(gpumem_trace SHARED ${gm_inj}/inject.c ${gm_inj}/trace.c ${gm_inj}/launch.c ${gm_inj}/time.c
            ${gm_inj}/select.c ${gm_inj}/json.c ${gm_inj}/device.c ${gm_inj}/lines.c ${gm_inj}/hostmem.c
            ${gm_inj}/values.c
            "${gm_trace_gen}/gmt_patches.c")
target_include_directories(gpumem_trace PRIVATE ${GM_SANITIZER_INCLUDE} ${CUDAToolkit_INCLUDE_DIRS} ${gm_inj})
target_compile_definitions(gpumem_trace PRIVATE _GNU_SOURCE)
get_filename_component(gm_san_libdir "${GM_SANITIZER_LIB}" DIRECTORY)
target_link_libraries(gpumem_trace PRIVATE ${GM_SANITIZER_LIB} CUDA::cuda_driver ${CMAKE_DL_LIBS} Threads::Threads)
# the toolkit's copy first (it matches the driver the toolkit came with), then the one found here
set_target_properties(gpumem_trace PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}" C_VISIBILITY_PRESET hidden
  BUILD_RPATH "/usr/local/cuda/compute-sanitizer;${gm_san_libdir}"
  INSTALL_RPATH "/usr/local/cuda/compute-sanitizer;${gm_san_libdir}")
install(TARGETS gpumem_trace LIBRARY DESTINATION lib/gpumem)
