"""Building a lab: the build itself (watched, with its failure read), the models emitted into it, the JsonSrcGen probe,
and the lock files of library-version builds."""
