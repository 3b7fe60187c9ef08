// SPDX-License-Identifier: Apache-2.0
// Sanitizer defaults of the fuzz targets, so that a bare run of build/fuzz/tests/fuzz/fuzz_* behaves
// like scripts/fuzz.sh: any undefined behaviour stops the fuzzer with a stack, except the Thrust idiom
// listed in ubsan.supp. UBSAN_OPTIONS still overrides these.
extern "C" char const* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:suppressions=" ROWSCAN_UBSAN_SUPPRESSIONS;
}
