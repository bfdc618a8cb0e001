"""A lab as data: its contract (lab.toml), builds, libraries and their versions, switches and settings, the variant
catalogue, prerequisites and vendor terms."""
