# commit.cmake - run at every build (the target gm_commit_stamp): writes OUT, a C file defining
# gm_tool_version_text, "VERSION+COMMIT" or "VERSION+COMMIT.modified" when tracked files differ from that
# commit ("VERSION" alone outside a git checkout), rewritten only when it changes so nothing rebuilds needlessly.
# usage: cmake -DSRC=<source dir> -DOUT=<file.c> -DVERSION=<x.y.z> -P commit.cmake
set(text "${VERSION}")
execute_process(COMMAND git -C "${SRC}" rev-parse --short=7 HEAD RESULT_VARIABLE rc OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(rc EQUAL 0 AND commit)
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE changes
                  ERROR_QUIET)
  set(text "${VERSION}+${commit}")
  if(changes)
    set(text "${text}.modified")
  endif()
endif()
file(WRITE "${OUT}.tmp" "/* generated at build time by cmake/commit.cmake */\nconst char gm_tool_version_text[] = \"${text}\";\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
