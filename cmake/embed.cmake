# embed.cmake - turn a file into a C array (run with cmake -P at build time).
#   -DINPUT=file -DOUTPUT=file.c -DSYMBOL=name
# Writes `const unsigned char NAME[]` (NUL-terminated) and `const size_t NAME_len`.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x..,){32})" "\\1\n" body "${body}")
file(WRITE "${OUTPUT}"
  "/* generated from ${INPUT} by cmake/embed.cmake; do not edit */\n"
  "#include <stddef.h>\n"
  "const unsigned char ${SYMBOL}[] = {\n${body}0x00};\n"
  "const size_t ${SYMBOL}_len = ${bytes};\n")
