"""What the league's records add up to: figures, sums, statistics, match records and exports."""
