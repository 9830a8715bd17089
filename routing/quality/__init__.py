"""Measuring and improving routing: golden-corpus evaluation, threshold tuning, CSV import, coverage gaps, the benchmark."""
