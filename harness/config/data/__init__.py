"""Datasets and models as data: the datasets, a user's local datasets and models, declared models, their options and
types, and the CLR names they map to."""
