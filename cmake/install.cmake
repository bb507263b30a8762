# Install and package (issue 26): `cmake --install build --prefix P` puts bin/gpumem, the manual page
# share/man/man1/gpumem.1, the bash completion share/bash-completion/completions/gpumem and the docs
# in share/doc/gpumem/; `cpack -G DEB` (from the build folder) makes a Debian package of the same.
# The manual page and the completion are printed by the built binary (`gpumem help --man`,
# `--completion`) from the option tables its parser and --help use, so the three always agree.
include(GNUInstallDirs)

set(GM_GEN ${CMAKE_BINARY_DIR}/generated)
foreach(doc "gpumem.1=--man" "gpumem.bash=--completion")
  string(REPLACE "=" ";" kv "${doc}")
  list(GET kv 0 file)
  list(GET kv 1 what)
  add_custom_command(OUTPUT ${GM_GEN}/${file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${GM_GEN}
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:gpumem> -DWHAT=${what} -DOUTPUT=${GM_GEN}/${file}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/gen_doc.cmake
    DEPENDS gpumem ${CMAKE_CURRENT_SOURCE_DIR}/cmake/gen_doc.cmake
    COMMENT "gpumem help ${what} > ${file}"
    VERBATIM)
endforeach()
add_custom_target(gpumem_docs ALL DEPENDS ${GM_GEN}/gpumem.1 ${GM_GEN}/gpumem.bash)

install(TARGETS gpumem RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${GM_GEN}/gpumem.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${GM_GEN}/gpumem.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME gpumem)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
# the per-model baselines `gpumem check` judges by (it looks in <bindir>/../share/gpumem/baselines)
install(DIRECTORY data/baselines/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gpumem/baselines FILES_MATCHING PATTERN "*.json")
# each family's page (src/families/<name>/README.md) as families/<name>.md
file(GLOB GM_FAMILY_PAGES src/families/*/README.md)
foreach(page ${GM_FAMILY_PAGES})
  get_filename_component(dir ${page} DIRECTORY)
  get_filename_component(name ${dir} NAME)
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_DOCDIR}/families RENAME ${name}.md)
endforeach()

# ---- the Debian package ---------------------------------------------------
# The binary links the CUDA runtime, jansson and zlib statically; at run time it needs libc (and the
# C++ runtime of cudart_static), which dpkg-shlibdeps finds, and the NVIDIA driver's libcuda.so.1,
# CUPTI (--counters) and NVRTC (explain --run), all opened with dlopen: Suggests, never Depends, as
# GPU hosts often have the driver from NVIDIA's installer and `list`, `explain`, `report`, `compare`
# and `predict` need no GPU at all.
set(GPUMEM_MAINTAINER "gpumem developers <gpumem@invalid>" CACHE STRING "Maintainer field of the Debian package")
set(CPACK_PACKAGE_NAME gpumem)
set(CPACK_PACKAGE_VENDOR "gpumem")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${GPUMEM_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "measure, predict and explain how a GPU's memory system treats an access pattern")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "gpumem times memory-bound CUDA kernels (coalescing, strides, misalignment, shared-memory bank "
    "conflicts, the cache hierarchy, transfers, ...), each validated against a CPU reference before it "
    "is timed, and predicts them with an analytic model of sectors, bank conflicts and launches. "
    "explain, predict, report and compare need no GPU; the rest needs an NVIDIA GPU and its driver.")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
find_program(GM_DPKG_SHLIBDEPS dpkg-shlibdeps)
# The trace library (built where the Sanitizer API is found) links the driver's libcuda.so.1, which no Debian
# package here provides, so dpkg-shlibdeps cannot resolve it: the fixed list then, the driver in Suggests.
if(GM_DPKG_SHLIBDEPS AND NOT TARGET gpumem_trace)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libgcc-s1, libstdc++6")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libcuda1, cuda-cupti-13-0, cuda-nvrtc-13-0, bash-completion")
include(CPack)
