"""The tool-ranking core: text, lexicon loading and validation, the index, signals, the router, the result schema, errors."""
