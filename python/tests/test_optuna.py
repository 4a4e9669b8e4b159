"""The Optuna bridge: distributions, conditional suggestions, two worker processes on one SQLite
study, and a cetune run imported into a study."""

import csv
import subprocess
import sys
import textwrap

import optuna
import pytest

import cetune.optuna as co


def test_distributions_follow_the_space():
    d = co.distributions("lqf")
    assert isinstance(d["t"], optuna.distributions.FloatDistribution)
    assert (d["t"].low, d["t"].high) == (0.05, 1.0)
    assert isinstance(d["min_chars"], optuna.distributions.IntDistribution)


def test_a_switched_off_member_s_genes_are_not_suggested():
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.RandomSampler(seed=3))
    seen_off = seen_serial = False
    for _ in range(40):
        trial = study.ask()
        values = co.suggest(trial, "combine")
        for m in ["ccb", "tccb", "lqf", "bte", "crunch", "density"]:
            if values.get(f"{m}.on") is False:
                seen_off = True
                assert not any(k.startswith(m + ".") and k != f"{m}.on" for k in values), values
        if values.get("combinator") != "vote":
            seen_serial = True
            assert "v" not in values
        study.tell(trial, 0.0)
    assert seen_off and seen_serial


SCRIPT = textwrap.dedent(
    """
    import sys, optuna, cetune.optuna as co
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage, goldset, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    study = optuna.load_study(study_name="lqf", storage=storage)
    study.optimize(co.objective(goldset, "lqf"), n_trials=n)
    """
)


def test_two_worker_processes_share_one_sqlite_study_without_losing_a_trial(tmp_path, repo):
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    optuna.create_study(study_name="lqf", storage=storage, direction="maximize")
    script = tmp_path / "work.py"
    script.write_text(SCRIPT)
    args = [sys.executable, str(script), storage, str(repo / "goldsets/default"), "30"]
    procs = [subprocess.Popen(args) for _ in range(2)]
    assert [p.wait(timeout=600) for p in procs] == [0, 0]
    trials = optuna.load_study(study_name="lqf", storage=storage).trials
    assert len(trials) == 60
    assert sorted(t.number for t in trials) == list(range(60))
    assert all(t.state == optuna.trial.TrialState.COMPLETE for t in trials)
    assert all(0.0 <= t.value <= 1.0 for t in trials)
    assert len({t.params["t"] for t in trials}) > 30


def test_a_cetune_run_loads_into_an_optuna_study(tmp_path, repo):
    run = repo / "results/reference/lqf"
    rows = list(csv.DictReader(open(run / "individuals.csv", newline="")))
    storage = f"sqlite:///{tmp_path / 'runs.db'}"
    study = co.import_run(str(run), storage=storage)
    again = optuna.load_study(study_name="lqf", storage=storage)
    assert len(again.trials) == len(rows)
    assert again.best_value == pytest.approx(max(float(r["fitness"]) for r in rows))
    first = again.trials[0]
    assert first.user_attrs["generation"] == int(rows[0]["generation"])
    assert first.params["t"] == pytest.approx(float(rows[0]["t"]))
    assert study.user_attrs["extractor"] == "lqf"
    # Optuna's own tools run on it.
    assert set(optuna.importance.get_param_importances(again)) >= {"t"}
