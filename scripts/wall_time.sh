# SPDX-License-Identifier: Apache-2.0
# Sourced by the device scripts (gpu_check.sh, devices_device.sh): whole-process timing.

# wall_seconds COMMAND...: runs COMMAND (output discarded) and prints its wall seconds; a failure is
# reported on stderr, not fatal.
wall_seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || echo "FAILED: $*" >&2
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.4f\n", $2 - $1}'
}

# median: the median of the numbers on stdin, one per line (the lower middle one for an even count).
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
