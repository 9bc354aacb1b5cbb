"""A pytest plugin: the checks of a claims directory as test items, one per claim variant.

Inert unless asked for. symcot installs it (entry point ``pytest11``), and it only adds its options until a
run names a claims directory:

- ``pytest --symcot-proofs DIR``: the claims of ``DIR`` (``symcot verify --proofs DIR`` reads the same), and
  nothing else unless paths are given too (``pytest tests --symcot-proofs DIR``: both);
- ``symcot_proofs = DIR`` in the ``[pytest]`` / ``[tool.pytest.ini_options]`` settings: a run without paths
  collects ``DIR`` besides its test paths, and a run given a path inside ``DIR`` collects it.

Each claim variant is an item named ``<claim id>[<variant>]`` (so ``-k main`` selects by id), run by
:meth:`symcot.claims.Claim.run_check` as ``symcot verify`` runs it (batched engine, each claim's own size
unless ``--symcot-max-size N``). ``proved`` and ``verified`` pass, and ``refuted`` where the variant is declared
expected to be refuted; ``refuted``, ``unknown`` and ``error`` fail with the row and its counterexample (or the
reason) as the message, and so does a row expected refuted that holds. ``--symcot-all-n`` adds an item per all-n
row (``<claim id>[all-n:<variant>]``). ``--lf`` and ``--ff`` rerun the items that failed, as for any test. The
collectors need pytest 8 (:mod:`symcot.pytest_plugin.items`); importing this module needs only pytest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: The name the collecting plugin is registered under once a run opts in.
PLUGIN_NAME = "symcot-claims"


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--symcot-proofs``, ``--symcot-max-size``, ``--symcot-jobs`` and the ini setting ``symcot_proofs``."""
    group = parser.getgroup("symcot", "symcot claims as test items")
    group.addoption("--symcot-proofs", action="append", default=[], metavar="DIR",
                    help="collect the claims of this claims directory, one item per claim variant (repeatable); "
                         "without other paths, only these")
    group.addoption("--symcot-max-size", type=int, default=None, metavar="N",
                    help="largest input size of every claim (default: each claim's own, as symcot verify)")
    group.addoption("--symcot-all-n", action="store_true", default=False,
                    help="add an item per all-n row (the claims' all-n checks, as symcot verify --all-n)")
    group.addoption("--symcot-jobs", type=int, default=None, metavar="N",
                    help="worker processes for large sizes (default: all cores, as symcot verify)")
    parser.addini("symcot_proofs", type="paths", default=[],
                  help="claims directories collected by a run given no paths (relative to this file)")


def pytest_configure(config: pytest.Config) -> None:
    """Register the claims collector when a claims directory is named; otherwise do nothing."""
    given = [Path(config.invocation_params.dir, d).resolve() for d in config.getoption("symcot_proofs") or []]
    configured = [Path(p).resolve() for p in config.getini("symcot_proofs")]
    if not given and not configured:
        return
    for opt, value in (("--symcot-max-size", config.getoption("symcot_max_size")),
                       ("--symcot-jobs", config.getoption("symcot_jobs"))):
        if value is not None and value < 1:
            raise pytest.UsageError(f"{opt} must be at least 1, got {value}")
    for d in given + configured:
        if not d.is_dir():
            raise pytest.UsageError(f"symcot claims directory {d} does not exist")
    if not hasattr(pytest, "Directory"):
        raise pytest.UsageError("collecting symcot claims (--symcot-proofs, symcot_proofs) needs pytest 8 or later")
    from symcot.pytest_plugin.items import ClaimsCollection

    config.pluginmanager.register(ClaimsCollection(list(dict.fromkeys(given + configured))), PLUGIN_NAME)
    config.addinivalue_line("markers", "symcot: a claim variant of a symcot claims directory (-m symcot)")
    paths = collected_paths(config, given, configured)
    if given:  # the header then names no test paths that the run does not take
        config.args_source = pytest.Config.ArgsSource.ARGS
    config.args[:] = paths


def collected_paths(config: pytest.Config, given: list[Path], configured: list[Path]) -> list[str]:
    """The run's paths: ``--symcot-proofs`` directories alone, or added to the paths given on the command line.

    The ``symcot_proofs`` setting adds its directories to a run without paths (the test paths, or the current
    directory). A directory inside one of the paths is not added again, nor one a path points into (a claim
    module, a claim's node id).
    """
    args = list(config.args)
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        if given:
            return [str(d) for d in given]
        extra = configured
    else:
        extra = given
    roots = [Path(config.invocation_params.dir, a.split("::")[0]).resolve() for a in args]
    return args + [str(d) for d in extra if not any(d == r or r in d.parents or d in r.parents for r in roots)]
