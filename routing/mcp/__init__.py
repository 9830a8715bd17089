"""The power gateway served as a real MCP server (official `mcp` SDK, stdio).

    server.py     the gateway: resolve_intent, activate_power, proxied tools (low-level Server)
    proxy.py      live powers: child servers started, listed, called, reaped
    children/     the bundled child servers: sqlite (sample database), filesystem (sandbox)

`python -m routing mcp [--domain powers]` runs it; README shows the client configuration.
"""
