"""Writing lexicons back safely (round-trip YAML, conflicts, history) and previewing an edit's impact on the golden questions."""
