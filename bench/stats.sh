# stats.sh: the statistics of the bench scripts, sourced by them. Each reads
# numbers from standard input, separated by spaces or newlines.

# The median (of an even count, the mean of the two middle numbers).
median() {
    awk '{for (i = 1; i <= NF; i++) print $i}' | sort -g |
        awk '{v[NR] = $1} END{print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# The smallest and the largest number, as "LO HI".
range() { awk '{for (i = 1; i <= NF; i++) print $i}' | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END{print lo, hi}'; }
