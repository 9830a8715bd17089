"""The power gateway served as a real MCP server (official `mcp` SDK, stdio or Streamable HTTP).

    server.py     the gateway: resolve_intent, activate_power, proxied tools (low-level Server);
                  stdio, and Streamable HTTP with a bearer token off loopback
    proxy.py      live powers: child servers started, listed, called, capped (LRU), reaped
    launch.py     how a power's server starts (servers.yaml: command, args, env, cwd) and whether it can here
    refresh.py    `mcp --refresh`: powers' tools written from what their servers list
    pgfixture.py  a throwaway PostgreSQL for the postgres power (tests, `mcp-postgres`)
    children/     our own child servers: sqlite (sample database), filesystem (sandbox, fallback)

`python -m routing mcp [--domain powers] [--http HOST:PORT]` runs it; README shows the client configuration.
"""
