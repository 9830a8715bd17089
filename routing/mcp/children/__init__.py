"""Bundled child MCP servers the gateway starts for live powers (real work, offline):

    python -m routing.mcp.children.sqlite_server --database lexicons/powers/sample/sample.sql
    python -m routing.mcp.children.filesystem_server --root lexicons/powers/sandbox

Each is a stdio MCP server built with the SDK's MCPServer (its tools are plain typed functions).
"""
