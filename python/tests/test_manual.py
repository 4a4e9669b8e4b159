"""The manual's Python snippets that the other tests do not run (docs/external.md): the API
overview and the Optuna study, exec'd as printed in a folder that holds what they name
(``goldsets/`` and ``results/`` of the repository), with the page variables a reader has at hand
(``html``, ``pages``, ``urls``, ``gold``) given to them. Needs optuna; .ci/python.sh installs it,
and the test fails, never skips, without it."""

import cetune


def _repo_folder(tmp_path, monkeypatch, repo):
    for name in ("goldsets", "results"):
        (tmp_path / name).symlink_to(repo / name)
    monkeypatch.chdir(tmp_path)


def test_the_manual_api_overview_runs_as_printed(tmp_path, monkeypatch, repo, readme_block):
    _repo_folder(tmp_path, monkeypatch, repo)
    files = sorted((repo / "goldsets/default/news").glob("*.html"))[:3]
    pages = [f.read_text(encoding="utf-8") for f in files]
    gold = files[0].with_suffix(".txt").read_text(encoding="utf-8")
    scope = {"html": pages[0], "pages": pages, "urls": [None] * len(pages), "gold": gold}
    exec(readme_block("manual-api"), scope)
    assert isinstance(scope["text"], str) and scope["text"]
    assert len(scope["texts"]) == 3
    assert all(0.0 <= scope[k] <= 1.0 for k in ("p", "r", "f1")) and scope["f1"] > 0
    assert len(scope["rows"]) == 48 and {"package", "f1"} <= set(scope["rows"][0])
    # The tuned setting the snippet loads is the reference LQF run's.
    assert scope["ex"].extract(pages[0]) == cetune.Extractor(params=str(repo / "results/reference/lqf/best.yaml")).extract(pages[0])


def test_the_manual_optuna_study_runs_as_printed(tmp_path, monkeypatch, repo, readme_block):
    import optuna

    _repo_folder(tmp_path, monkeypatch, repo)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    scope = {}
    exec(readme_block("manual-optuna"), scope)
    study = scope["study"]
    assert len(study.trials) == 100
    assert 0.5 < study.best_value <= 1.0
    runs = optuna.load_study(study_name="lqf", storage="sqlite:///runs.db")
    assert len(runs.trials) > 10
