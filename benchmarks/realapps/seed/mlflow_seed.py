"""Seed an MLflow SQLite store with three experiments, their runs and a model registry.

Runs through MLflow's own client (the same calls a training script makes), with fixed
timestamps and a seeded generator, so the numbers are the same on every seed (run ids
are MLflow's own UUIDs). Usage: python mlflow_seed.py sqlite:///PATH/mlflow.db ARTIFACT_DIR
"""

from __future__ import annotations

import math
import random
import sys
import tempfile
from pathlib import Path

from mlflow.entities import Metric, Param, RunTag
from mlflow.tracking import MlflowClient

DAY_MS = 86_400_000
T0 = 1_743_500_000_000  # 1 April 2025, in ms

EXPERIMENTS = [
    {
        "name": "customer-churn",
        "description": "Predict which subscribers cancel within 30 days, from 18 months "
        "of billing and support history.",
        "tags": {"team": "growth-analytics", "dataset": "subscribers_2025q1"},
        "metric": ("val_auc", 0.78, 0.93),
        "runs": [
            ("logreg-baseline", "sklearn", {"C": "1.0", "penalty": "l2", "max_iter": "500"}),
            ("random-forest-300", "sklearn", {"n_estimators": "300", "max_depth": "12"}),
            (
                "xgboost-depth6",
                "xgboost",
                {"max_depth": "6", "learning_rate": "0.1", "n_estimators": "400"},
            ),
            (
                "xgboost-depth8-lr05",
                "xgboost",
                {"max_depth": "8", "learning_rate": "0.05", "n_estimators": "800"},
            ),
            (
                "lightgbm-tuned",
                "lightgbm",
                {"num_leaves": "63", "learning_rate": "0.03", "feature_fraction": "0.8"},
            ),
        ],
    },
    {
        "name": "store-demand-forecast",
        "description": "Weekly unit demand per store and product family, 12 weeks ahead.",
        "tags": {"team": "supply-chain", "dataset": "sales_weekly_2019_2025"},
        "metric": ("val_mape", 0.21, 0.09),
        "runs": [
            ("seasonal-naive", "baseline", {"season_length": "52"}),
            (
                "prophet-holidays",
                "prophet",
                {"changepoint_prior_scale": "0.05", "holidays": "true"},
            ),
            ("lightgbm-lags", "lightgbm", {"lags": "1,2,4,52", "num_leaves": "31"}),
            (
                "tft-small",
                "pytorch",
                {"hidden_size": "64", "attention_heads": "4", "dropout": "0.1"},
            ),
        ],
    },
    {
        "name": "support-ticket-routing",
        "description": "Route incoming support tickets to one of 9 queues from the "
        "subject and first message.",
        "tags": {"team": "customer-support", "dataset": "tickets_en_2024"},
        "metric": ("val_accuracy", 0.71, 0.89),
        "runs": [
            ("tfidf-linear-svm", "sklearn", {"ngram_range": "1,2", "C": "0.5"}),
            (
                "distilbert-3ep",
                "transformers",
                {"epochs": "3", "learning_rate": "5e-5", "batch_size": "32"},
            ),
            (
                "distilbert-5ep-warmup",
                "transformers",
                {"epochs": "5", "learning_rate": "3e-5", "warmup_ratio": "0.1", "batch_size": "32"},
            ),
        ],
    },
]


def seed(uri: str, artifacts: Path) -> None:
    rng = random.Random(2025)
    client = MlflowClient(tracking_uri=uri, registry_uri=uri)
    artifacts.mkdir(parents=True, exist_ok=True)
    best: dict[str, tuple[float, str]] = {}
    for e_index, spec in enumerate(EXPERIMENTS):
        experiment_id = client.create_experiment(
            spec["name"],
            artifact_location=(artifacts / spec["name"]).as_uri(),
            tags={**spec["tags"], "mlflow.note.content": spec["description"]},
        )
        key, start_value, end_value = spec["metric"]
        lower_is_better = end_value < start_value
        for r_index, (run_name, flavor, params) in enumerate(spec["runs"]):
            started = T0 + (e_index * 9 + r_index * 2) * DAY_MS + rng.randint(0, 8) * 3_600_000
            run = client.create_run(
                experiment_id,
                start_time=started,
                run_name=run_name,
                tags={"model_family": flavor, "mlflow.user": "priya.raman"},
            )
            run_id = run.info.run_id
            quality = (r_index + 1) / len(spec["runs"])
            final = start_value + (end_value - start_value) * quality * rng.uniform(0.92, 1.0)
            epochs = 20
            metrics: list[Metric] = []
            for step in range(epochs):
                progress = 1 - math.exp(-4 * (step + 1) / epochs)
                value = start_value + (final - start_value) * progress
                value += rng.uniform(-0.004, 0.004)
                stamp = started + step * 180_000
                metrics.append(Metric(key, round(value, 4), stamp, step))
                loss = 0.9 * math.exp(-2.5 * (step + 1) / epochs) + 0.18 + rng.uniform(0, 0.01)
                metrics.append(Metric("train_loss", round(loss, 4), stamp, step))
                metrics.append(Metric("val_loss", round(loss * 1.12, 4), stamp, step))
            extra = {
                "customer-churn": {"val_f1": final - 0.11, "val_precision": final - 0.06},
                "store-demand-forecast": {"val_rmse": 140 * final / 0.1, "val_bias": -0.012},
                "support-ticket-routing": {"val_macro_f1": final - 0.04},
            }[spec["name"]]
            for name, value in extra.items():
                metrics.append(Metric(name, round(value, 4), started + epochs * 180_000, 0))
            client.log_batch(
                run_id,
                metrics=metrics,
                params=[Param(k, v) for k, v in params.items()],
                tags=[RunTag("mlflow.source.name", f"train_{spec['name'].replace('-', '_')}.py")],
            )
            with tempfile.TemporaryDirectory() as scratch:
                card = Path(scratch) / "model_card.md"
                card.write_text(
                    f"# {run_name}\n\n{spec['description']}\n\nFamily: {flavor}\n"
                    f"Final {key}: {final:.3f}\n",
                    encoding="utf-8",
                )
                client.log_artifact(run_id, str(card))
                table = Path(scratch) / "feature_importance.csv"
                table.write_text(
                    "feature,importance\n"
                    + "".join(
                        f"{f},{rng.uniform(0.02, 0.3):.3f}\n"
                        for f in (
                            "tenure_months",
                            "support_tickets_90d",
                            "plan_price",
                            "late_payments",
                            "logins_30d",
                        )
                    ),
                    encoding="utf-8",
                )
                client.log_artifact(run_id, str(table))
            client.set_terminated(run_id, end_time=started + epochs * 180_000 + 60_000)
            score = -final if lower_is_better else final
            if spec["name"] not in best or score > best[spec["name"]][0]:
                best[spec["name"]] = (score, run_id)
    for model, experiment in (
        ("churn-classifier", "customer-churn"),
        ("demand-forecaster", "store-demand-forecast"),
        ("ticket-router", "support-ticket-routing"),
    ):
        client.create_registered_model(
            model,
            tags={"owner": "ml-platform"},
            description=f"Production model for {experiment.replace('-', ' ')}.",
        )
        runs = client.search_runs(
            [client.get_experiment_by_name(experiment).experiment_id],
            order_by=["attributes.start_time ASC"],
        )
        for run in runs[-2:]:
            version = client.create_model_version(
                model, source=f"{run.info.artifact_uri}/model_card.md", run_id=run.info.run_id
            )
        client.set_registered_model_alias(model, "champion", version.version)


if __name__ == "__main__":
    seed(sys.argv[1], Path(sys.argv[2]))
