// The client package for servers (interface.md "Client package"). Not built yet; see the issues.
export {};
