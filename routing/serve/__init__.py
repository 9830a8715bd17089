"""The HTTP API (FastAPI on uvicorn) for agents that are not Python: routing.serve.app.create_app."""
