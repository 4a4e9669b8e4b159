"""trafilatura as a cetune family: ``python -m cetune.worker trafilatura_worker:extract``.

Run from this folder (or with it on PYTHONPATH) in a Python environment that has trafilatura;
``params/external/trafilatura.yaml`` declares the options cetune tunes. The defaults of
``extract`` below are trafilatura 2.2's own.
"""

import trafilatura


def extract(
    html,
    url=None,
    fast=False,
    favor_precision=False,
    favor_recall=False,
    include_comments=True,
    include_tables=True,
):
    return trafilatura.extract(
        html,
        url=url,
        fast=fast,
        favor_precision=favor_precision,
        favor_recall=favor_recall,
        include_comments=include_comments,
        include_tables=include_tables,
    )
