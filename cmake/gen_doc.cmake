# cmake -DBIN=gpumem -DWHAT=--man|--completion -DOUTPUT=file -P gen_doc.cmake
# What `gpumem help WHAT` prints, into OUTPUT (the build's manual page and completion).
execute_process(COMMAND "${BIN}" help ${WHAT} OUTPUT_FILE "${OUTPUT}.tmp" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "'${BIN} help ${WHAT}' failed (${rc})")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
