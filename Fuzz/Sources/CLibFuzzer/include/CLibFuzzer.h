#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, FuzzerInterface.h): runs the fuzzing
/// loop over `callback` with libFuzzer's command-line flags in argv. Linked
/// from libclang_rt.fuzzer, which `-sanitize=fuzzer` brings.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
