"""Every default the analysis uses, in one place."""

from harness.model.defaults import RESULTS_DIR

#: A group whose widest ratio 99% CI half-width exceeds this is named in the Precision section with the cause of its
# spread.
WIDE_RATIO_CI = 0.05

#: A paired process that compiled more methods than this while its rounds were timed is named in the Noise section: its
# code changed under the timer. Healthy groups compiled 2-58 during their rounds (the runtime's own gen-2 callbacks and
# finalizers, which tier up after the rounds' forced collections), write-up 001's `file` group 342-556 (run
# new-warm-2026-12-03, docs/findings.md "Tiering pauses").
ROUNDS_COMPILATIONS_NOTED = 100

#: The results store (analysis/store/, docs/store.md): every run folder under results/ imported into one SQLite file.
STORE_PATH = RESULTS_DIR / "store.sqlite"
#: The history site (analysis/site/, `just site`): static pages of every figure across the store's runs, beside the run
#: folders so that its links to their reports work.
SITE_PATH = RESULTS_DIR / "site"
