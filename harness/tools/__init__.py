"""Side tools: BenchmarkDotNet report reading and import, the canonical form of JSON outputs."""
