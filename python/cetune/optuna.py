"""cetune under Optuna: parameter spaces as Optuna distributions, an objective over a gold set,
and cetune runs imported into Optuna studies.

Run cetune's extractors with Optuna's samplers and storages (RDB or journal) from any number of
independent worker processes or machines::

    import optuna, cetune.optuna as co
    study = optuna.create_study(direction="maximize", storage="sqlite:///tune.db",
                                study_name="lqf", load_if_exists=True)
    study.optimize(co.objective("goldsets/default", "lqf"), n_trials=100)

and look at a cetune run with optuna-dashboard, Optuna's importances and plots::

    study = co.import_run("results/reference/lqf", storage="sqlite:///runs.db")

Conditional genes are conditional suggestions: a combination's member parameters are suggested
only when the member is on (``m.on``), the vote's ``v``, ``m.weight`` and ``m.soft`` only under
``combinator=vote``, ``m.order`` only under ``serial`` or ``fallback``. What is not suggested
keeps its default. Needs ``optuna`` (``pip install cetune[optuna]``).
"""

from __future__ import annotations

import csv
import os
import tempfile
from typing import Any, Callable, Optional

import optuna
from optuna.distributions import BaseDistribution, CategoricalDistribution, FloatDistribution, IntDistribution

from . import _cetune

__all__ = ["distributions", "suggest", "objective", "import_run", "describe"]


def describe(params: str) -> dict[str, Any]:
    """The parameter space of a family name or a parameter file (see ``cetune.space``)."""
    return _cetune.space(params)


def _distribution(p: dict[str, Any], stepped: bool = True) -> BaseDistribution:
    kind = p["type"]
    if kind == "float":
        step = p.get("step") if stepped else None
        if step:
            n = round((p["max"] - p["min"]) / step)
            if abs(p["min"] + n * step - p["max"]) > 1e-9 * max(1.0, abs(p["max"])):
                step = None
        return FloatDistribution(p["min"], p["max"], step=step or None)
    if kind == "int":
        return IntDistribution(int(p["min"]), int(p["max"]))
    if kind == "bool":
        return CategoricalDistribution([False, True])
    return CategoricalDistribution(list(p["choices"]))


def distributions(params: str) -> dict[str, BaseDistribution]:
    """Optuna distributions of the tuned parameters (genes) of a name or a parameter file."""
    return {p["name"]: _distribution(p) for p in describe(params)["params"] if p["tune"]}


def _active(name: str, values: dict[str, Any], members: list[str]) -> bool:
    """Whether gene ``name`` matters given the values suggested so far (combinations only)."""
    if not members:
        return True
    combinator = values.get("combinator", "vote")
    if name == "v":
        return combinator == "vote"
    member, dot, rest = name.partition(".")
    if not dot or member not in members:
        return True
    if rest == "on":
        return True
    if values.get(f"{member}.on", True) is False:
        return False
    if rest in ("weight", "soft"):
        return combinator == "vote"
    if rest == "order":
        return combinator in ("serial", "fallback")
    return True


def suggest(trial: optuna.trial.BaseTrial, params: str, space: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """Suggests a setting for ``trial``: the genes of ``params`` as Optuna suggestions, the
    conditional ones only where active. Returns the suggested values by name."""
    space = space or describe(params)
    genes = [p for p in space["params"] if p["tune"]]
    # Structure first (combinator, member switches), so the others know what is active.
    first = [p for p in genes if p["name"] == "combinator" or p["name"].endswith(".on")]
    rest = [p for p in genes if p not in first]
    values: dict[str, Any] = {}
    for p in first + rest:
        if not _active(p["name"], values, space["members"]):
            continue
        d = _distribution(p)
        if isinstance(d, FloatDistribution):
            values[p["name"]] = trial.suggest_float(p["name"], d.low, d.high, step=d.step)
        elif isinstance(d, IntDistribution):
            values[p["name"]] = trial.suggest_int(p["name"], d.low, d.high)
        else:
            values[p["name"]] = trial.suggest_categorical(p["name"], d.choices)
    return values


def objective(goldset: str, params: str, measure: str = "lcs") -> Callable[[optuna.trial.Trial], float]:
    """An Optuna objective: the mean per-document F1 (error rows count 0) of the suggested
    setting of ``params`` (a name or a parameter file) on a native gold set. Precision, recall
    and the error count go to the trial's user attributes."""
    space = describe(params)

    def run(trial: optuna.trial.Trial) -> float:
        values = suggest(trial, params, space)
        rows = _cetune.evaluate(goldset, params, measure, **values)
        n = max(1, len(rows))
        trial.set_user_attr("precision", sum(r["precision"] for r in rows) / n)
        trial.set_user_attr("recall", sum(r["recall"] for r in rows) / n)
        trial.set_user_attr("errors", sum(1 for r in rows if r["error"]))
        return sum(r["f1"] for r in rows) / n

    return run


def _run_space(run: str) -> dict[str, Any]:
    """The parameter space a cetune run was drawn from (its run.yaml's ``params_yaml``)."""
    import yaml  # a dependency of optuna

    with open(os.path.join(run, "run.yaml"), encoding="utf-8") as f:
        record = yaml.safe_load(f)
    text = record.get("params_yaml")
    if not text:
        return describe(record["extractor"])
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as t:
        t.write(text)
    try:
        return describe(t.name)
    finally:
        os.unlink(t.name)


def _value(p: dict[str, Any], text: str) -> Any:
    if p["type"] == "bool":
        return text == "true"
    if p["type"] == "int":
        return int(float(text))
    if p["type"] == "float":
        return float(text)
    return text


def import_run(
    run: str, storage: Optional[str] = None, study_name: Optional[str] = None, load_if_exists: bool = False
) -> optuna.Study:
    """Loads a finished or running cetune run folder into an Optuna study (maximising): one
    complete trial per line of ``individuals.csv`` with its genes, its fitness as the value and
    its generation, precision, recall, cache flag and cetune trial number as user attributes.
    ``storage`` is any Optuna storage URL (``sqlite:///runs.db``), in memory when None."""
    space = _run_space(run)
    genes = {p["name"]: p for p in space["params"] if p["tune"]}
    dists = {n: _distribution(p, stepped=False) for n, p in genes.items()}
    study = optuna.create_study(
        storage=storage,
        study_name=study_name or os.path.basename(os.path.normpath(run)),
        direction="maximize",
        load_if_exists=load_if_exists,
    )
    study.set_user_attr("cetune_run", os.path.abspath(run))
    study.set_user_attr("extractor", space["extractor"])
    trials = []
    with open(os.path.join(run, "individuals.csv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            params = {n: _value(p, row[n]) for n, p in genes.items() if n in row}
            feasible = row.get("feasible", "true") == "true"
            fitness = float(row["fitness"])
            state = optuna.trial.TrialState.COMPLETE if feasible else optuna.trial.TrialState.FAIL
            trials.append(
                optuna.trial.create_trial(
                    params=params,
                    distributions={n: dists[n] for n in params},
                    value=fitness if feasible else None,
                    state=state,
                    user_attrs={
                        "cetune_trial": int(row["trial"]),
                        "generation": int(row["generation"]),
                        "precision": float(row["precision"]),
                        "recall": float(row["recall"]),
                        "cached": row.get("cached") == "true",
                    },
                )
            )
    study.add_trials(trials)
    return study
