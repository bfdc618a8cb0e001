"""An experiment as data: the schema, rules and checks of an experiment file, its templates, claim tables, profiles and
run settings."""
