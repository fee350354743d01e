// The tool door (interface.md "Tool door"): POST /api/mcp. Not built yet; see the issues.
export {};
