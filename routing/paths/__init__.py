"""Fast path or LLM path: deciding the path, planning it (category, tool groups, model, pipeline), the LLM client, token and money costs."""
