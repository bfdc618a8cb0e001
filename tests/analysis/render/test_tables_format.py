"""How numbers are written in the report's tables."""

from analysis.formatting.tables import format_ratio
from harness.model.stats.stats import format_rel_ci


def test_an_interval_wider_than_the_value_is_not_written_as_a_huge_number():
    # With two processes the t quantile is 63.7: the smoke report once printed ±8776679146.7% for a ratio.
    assert format_rel_ci(87766791.467) == "±>100%"
    assert format_rel_ci(1.0) == "±>100%"
    assert format_rel_ci(0.0183) == "±1.8%"
    assert format_ratio(0.512, 87766791.467) == "0.51× ±>100%"
    assert format_ratio(0.512, 0.018) == "0.51× ±1.8%"
