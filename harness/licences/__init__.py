"""Licences: the policy (licences.toml) and the readers of each lab's lock files (NuGet, npm, Debian), the table they
make, and the registries asked which versions they serve."""
