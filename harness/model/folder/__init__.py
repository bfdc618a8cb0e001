"""The run folder: its layout, records and field types, the rows store, stored names, the environment, hosts and lab
files, result lines and CPU state."""
