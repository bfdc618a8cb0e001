"""Statistics: intervals and pairing, overlap, bisection, the group's precision and stopping state, the decision and
noise forecasts, allocation, interference and the warm-up check."""
