"""Reading a publisher's BenchmarkDotNet report into a write-up: its header, jobs, runtimes, machines, columns and
units, grouped into claims and written as a claims table (`harness import-bdn`)."""
