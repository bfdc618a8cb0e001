"""From numbers to the report: report.md, tables, report.html, and the one writer of the report folder."""
