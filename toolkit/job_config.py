"""What a job is given: the rules it reads and how its work is spread (workers, batch size)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from toolkit.rules import ParsingRules, PrivacyRules, QualityRules, RiskRules

DEFAULT_BATCH_SIZE = 500
MIN_PER_WORKER = 250
"""Fewer profiles than this per worker are not worth starting a worker process for: a worker spends about
1.5 s loading spaCy and Presidio, the time it takes to scrub some 200 profiles (2-core machine)."""


@dataclass(frozen=True)
class JobRules:
    parsing: ParsingRules
    quality: QualityRules | None = None
    """None only for a job that only parses."""
    privacy: PrivacyRules | None = None
    risk: RiskRules | None = None
    """None: no re-identification risk pass (the release is then only pseudonymized)."""


@dataclass(frozen=True)
class JobSettings:
    jobs: int = 0
    """Worker processes; 0 means one per core. With 1, the kernels run in this process."""
    batch_size: int = DEFAULT_BATCH_SIZE
    """Profiles per batch at most (fewer when that keeps every worker busy); results do not depend on it."""
    progress: bool = True
    min_per_worker: int = MIN_PER_WORKER
    """Profiles a worker process must have at least to be started."""
    engine: str = "local"
    """Where the kernels run: `local` (this machine's processes) or `spark` (`toolkit.spark`)."""
    master: str | None = None
    """The Spark master of a session the job starts (default `local[*]`); None on the local engine."""

    def workers(self) -> int:
        return self.jobs if self.jobs > 0 else max(1, os.cpu_count() or 1)
