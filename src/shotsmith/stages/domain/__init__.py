"""detect_domain: the App Store category of each set."""

from .stage import (
    CATEGORIES,
    FALLBACK_CATEGORY,
    DomainPrediction,
    detect_domain,
    predict_domain,
    score_domains,
)

__all__ = [
    "CATEGORIES",
    "FALLBACK_CATEGORY",
    "DomainPrediction",
    "detect_domain",
    "predict_domain",
    "score_domains",
]
