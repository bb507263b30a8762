# src/trace/inject/inject.cmake - libgpumem_trace.so, the injection library of `gpumem trace` (issue 38).
# Built only where the Compute Sanitizer API headers are found (the CUDA toolkit's compute-sanitizer/include,
# or the pip package nvidia-cuda-sanitizer-api: scripts/deps.sh's last block). The gpumem binary never links it.
# placeholder: the real rules land with the library
