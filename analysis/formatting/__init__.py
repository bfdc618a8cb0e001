"""Numbers, intervals, names and tables as text, for charts, sections and tables."""
