"""Configuration: experiments, profiles, datasets, ISA levels, labs and their catalogue, prerequisites, defaults."""
