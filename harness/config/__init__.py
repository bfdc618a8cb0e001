"""Configuration read from data files and checked: the CPU models and ISA levels, hosts, command-line arguments and the
data-file reader; a lab (lab/), an experiment (experiment/), datasets and models (data/)."""
