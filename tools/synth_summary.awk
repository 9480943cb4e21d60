# Summarise `yosys stat` output: cells and flops ($_DFF*/$_SDFF*/$_DLATCH*) per module.
# Reads Yosys 0.70's format ("N cells", "N   $_DFF_..." under each module;
# the design hierarchy's totals under "=== design hierarchy ===") and the
# older one ("Number of cells: N", "$_DFF_...   N").
# Module names lose Yosys' $paramod hash; parameters stay readable; the last
# row ('design') is the whole hierarchy.
/^=== / {
  m = $2
  sub(/^\$paramod\$[0-9a-f]+\\/, "", m)
  sub(/^\$paramod\\/, "", m)
  gsub(/\\/, " ", m)
  # Yosys prints integer parameters as 32-bit binary: show them in decimal.
  if (match(m, /=32'[01]+/)) {
    bits = substr(m, RSTART + 4, RLENGTH - 4); v = 0
    for (k = 1; k <= length(bits); k++) v = v * 2 + substr(bits, k, 1)
    m = substr(m, 1, RSTART) v substr(m, RSTART + RLENGTH)
  }
  # Two parameterisations of one module (e.g. domains with different
  # parameters) keep separate rows.
  if (m in seen) m = m " #" (++seen[m])
  else seen[m] = 1
  order[++n] = m
  next
}
/Number of cells:/ { cells[m] = $4; next }
NF == 2 && $2 == "cells" { cells[m] = $1; next }
NF == 2 && $2 ~ /^\$_(S?DFF|DLATCH)/ && $1 ~ /^[0-9]+$/ { ff[m] += $1; next }
/\$_(S?DFF|DLATCH)/ { ff[m] += $2; next }
END {
  printf "\n%-40s %10s %8s\n", "module (instance counts above)", "cells", "flops"
  for (i = 1; i <= n; i++) printf "%-40s %10d %8d\n", order[i], cells[order[i]], ff[order[i]]
}
