"""Seed an Optuna RDB storage (SQLite) with three hyperparameter studies.

The objectives are cheap closed-form stand-ins for real training jobs (no data set, no
model), written so the studies look like real tuning: a learning-rate sweet spot, a
pruned run here and there, a two-objective accuracy/latency trade-off. Every sampler is
seeded, so a reseed gives the same trials. Usage: python optuna_seed.py sqlite:///PATH
"""

from __future__ import annotations

import math
import sys

import optuna


def churn_objective(trial: optuna.Trial) -> float:
    lr = trial.suggest_float("learning_rate", 1e-3, 0.3, log=True)
    leaves = trial.suggest_int("num_leaves", 8, 256, log=True)
    frac = trial.suggest_float("feature_fraction", 0.4, 1.0)
    l2 = trial.suggest_float("lambda_l2", 1e-3, 10.0, log=True)
    booster = trial.suggest_categorical("boosting", ["gbdt", "dart", "goss"])
    best = 0.93 - 0.035 * (math.log10(lr) + 1.5) ** 2 - 0.012 * (math.log2(leaves) - 6) ** 2 / 4
    best -= 0.05 * (frac - 0.8) ** 2 + 0.004 * abs(math.log10(l2))
    best -= {"gbdt": 0.0, "dart": 0.004, "goss": 0.011}[booster]
    auc = 0.5
    for step in range(1, 21):  # validation AUC after every 10 boosting rounds
        auc = 0.5 + (best - 0.5) * (1 - math.exp(-step / 5))
        trial.report(round(auc, 4), step * 10)
        if trial.should_prune():
            raise optuna.TrialPruned()
    return round(auc, 4)


def forecast_objective(trial: optuna.Trial) -> float:
    layers = trial.suggest_int("lstm_layers", 1, 4)
    units = trial.suggest_categorical("hidden_units", [32, 64, 128, 256])
    dropout = trial.suggest_float("dropout", 0.0, 0.5)
    window = trial.suggest_int("lookback_weeks", 4, 52)
    mape = 0.09 + 0.01 * (layers - 2) ** 2 + 0.02 * abs(math.log2(units / 128))
    mape += 0.08 * (dropout - 0.2) ** 2 + 0.0004 * (window - 26) ** 2 / 4
    return round(mape, 4)


def detector_objective(trial: optuna.Trial) -> tuple[float, float]:
    width = trial.suggest_float("width_multiplier", 0.25, 1.5)
    size = trial.suggest_categorical("input_size", [224, 320, 416, 512])
    depth = trial.suggest_int("backbone_depth", 18, 101, step=1)
    accuracy = 0.62 + 0.12 * (1 - math.exp(-width * 2)) + 0.00012 * (size - 224) + 0.0006 * depth
    latency = 4 + 22 * width * (size / 320) ** 2 + 0.18 * depth
    return round(min(accuracy, 0.91), 4), round(latency, 1)


def main(storage: str) -> None:
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    churn = optuna.create_study(
        study_name="churn-lightgbm",
        storage=storage,
        direction="maximize",
        sampler=optuna.samplers.TPESampler(seed=7),
        pruner=optuna.pruners.MedianPruner(n_startup_trials=8, n_warmup_steps=40),
    )
    churn.set_user_attr("owner", "priya.raman")
    churn.set_user_attr("metric", "validation AUC")
    churn.optimize(churn_objective, n_trials=60)
    forecast = optuna.create_study(
        study_name="demand-forecast-lstm",
        storage=storage,
        direction="minimize",
        sampler=optuna.samplers.TPESampler(seed=11),
    )
    forecast.set_user_attr("metric", "validation MAPE")
    forecast.optimize(forecast_objective, n_trials=40)
    detector = optuna.create_study(
        study_name="shelf-detector-accuracy-vs-latency",
        storage=storage,
        directions=["maximize", "minimize"],
        sampler=optuna.samplers.NSGAIISampler(seed=3, population_size=16),
    )
    detector.set_metric_names(["mAP", "latency_ms"])
    detector.optimize(detector_objective, n_trials=64)


if __name__ == "__main__":
    main(sys.argv[1])
